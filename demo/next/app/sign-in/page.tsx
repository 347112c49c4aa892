import { AuthProvider, AuthSignIn } from "@latchkey/react";

export const dynamic = "force-dynamic";

/** Where proxy.ts sends signed-out visitors: after signing in, `<AuthSignIn>` goes to `after_auth_return_to`. */
export default function SignIn() {
  return (
    <main>
      <h1>Sign in</h1>
      <AuthProvider
        projectId={process.env.LATCHKEY_PROJECT_ID!}
        publishableClientKey={process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY!}
        baseUrl={process.env.LATCHKEY_BASE_URL!}
      >
        <AuthSignIn />
      </AuthProvider>
    </main>
  );
}
