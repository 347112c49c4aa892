import { AuthProvider, AuthSignIn, AuthUserButton, Protect, SignedIn, SignedOut } from "@latchkey/react";
import { Greeting, SessionFacts } from "./readers";

// Rendered for each request: the Latchkey server and project come from the environment `next start` runs in.
export const dynamic = "force-dynamic";

/**
 * The shape most apps have: a header that shows the user button or a sign-in link, and a body that reads the
 * user itself. Several readers of one session on one page, rendered from a Server Component: each must render
 * on the browser's first pass what the server rendered ("still loading"), however soon the session settles
 * (signed out it settles at once, with no request), and only then show the user or "signed out".
 */
export default function Header() {
  return (
    <AuthProvider
      projectId={process.env.LATCHKEY_PROJECT_ID!}
      publishableClientKey={process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY!}
      baseUrl={process.env.LATCHKEY_BASE_URL!}
    >
      <header>
        <SignedIn>
          <AuthUserButton />
        </SignedIn>
        <SignedOut>
          <a href="#sign-in">Sign in</a>
        </SignedOut>
      </header>
      <main>
        <Greeting />
        <Protect fallback={<p>Members only: sign in to see more.</p>}>
          <p>Welcome to the members&apos; area.</p>
        </Protect>
        <SessionFacts />
        <SignedOut>
          <section id="sign-in">
            <AuthSignIn noRedirect />
          </section>
        </SignedOut>
      </main>
    </AuthProvider>
  );
}
