import { AuthHandler, AuthProvider, AuthSignIn, AuthUserButton, useUser } from "@latchkey/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
// Defines globalThis.latchkeyDemoProject(): the same project choice as the plain page (see that file).
import "../demo-project.js";
import "../demo.css";

declare global {
  function latchkeyDemoProject(): { projectId: string; publishableClientKey: string; baseUrl: string };
}

const HANDLER = "/demo/react/handler";

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
