import { AuthProvider, AuthSignIn } from "@latchkey/react";
import { Account } from "./account";

// Rendered for each request: the Latchkey server and project come from the environment `next start` runs in.
export const dynamic = "force-dynamic";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} (the Latchkey server and project this app signs people in to).`);
  return value;
}

/**
 * A Server Component: it renders @latchkey/react's client components (the package is marked "use client") with
 * props from the server, and `Account`, a client component of the app that reads `useUser()`.
 */
export default function Home() {
  return (
    <main>
      <h1>Latchkey with Next.js</h1>
      <AuthProvider
        projectId={setting("LATCHKEY_PROJECT_ID")}
        publishableClientKey={setting("LATCHKEY_PUBLISHABLE_CLIENT_KEY")}
        baseUrl={setting("LATCHKEY_BASE_URL")}
        appearance={{ variables: { "--auth-color-primary": "#0f766e" } }}
      >
        <Account />
        <AuthSignIn noRedirect />
      </AuthProvider>
    </main>
  );
}
