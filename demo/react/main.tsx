import { AuthHandler, AuthItemBalance, AuthPricingTable, AuthProvider, AuthSignIn, AuthUserButton, useOffers, useUser } from "@latchkey/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
// Defines globalThis.latchkeyDemoProject(): the same project choice as the plain page (see that file).
import "../demo-project.js";
import "../demo.css";

declare global {
  function latchkeyDemoProject(): { projectId: string; publishableClientKey: string; baseUrl: string };
}

const HANDLER = "/demo/react/handler";

/** The user's plan and credits, when the project sells plans (the dev server's demo project does). */
function Plans() {
  const plans = useOffers({ groupId: "plans" });
  if (!plans?.length) return null;
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">Your plan</h2>
      <p>
        Credits: <AuthItemBalance item="credits" noLabel />
      </p>
      <AuthPricingTable group="plans" />
    </section>
  );
}

/** Home: the signed-in user, or the sign-in form right on the page. */
function Home() {
  const user = useUser();
  if (user === undefined) return <p>Loading…</p>;
  if (user === null) {
    return (
      <section>
        <h1>Sign in to the React demo</h1>
        <AuthSignIn />
      </section>
    );
  }
  return (
    <section>
      <h1>Hello, {user.displayName ?? user.primaryEmail}</h1>
      <p>
        Signed in as {user.primaryEmail}. Email {user.primaryEmailVerified ? "verified" : "not verified yet"}.
      </p>
      <Plans />
    </section>
  );
}

function App() {
  // No router: the handler pages (verification links, password reset, …) are every path under HANDLER.
  const onHandlerPage = location.pathname.startsWith(`${HANDLER}/`);
  return (
    <AuthProvider {...latchkeyDemoProject()} urls={{ handler: HANDLER, home: "/demo/react/" }}>
      <header>
        <a className="brand" href="/demo/react/">
          Latchkey demo · React
        </a>
        <AuthUserButton showName />
      </header>
      <main>
        {onHandlerPage ? <AuthHandler /> : <Home />}
        <p>
          <a href="/demo/">The same with a script tag</a>
        </p>
      </main>
    </AuthProvider>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
