import { AuthHandler, AuthProvider } from "@latchkey/react";

export const dynamic = "force-dynamic";

/**
 * The widgets' own pages (sign-up, email verification, password reset, OAuth callback, …) on every path under
 * /handler/, as the dashboard's Get started page and the README tell a Next.js app to add them.
 */
export default function Handler() {
  return (
    <AuthProvider
      projectId={process.env.LATCHKEY_PROJECT_ID!}
      publishableClientKey={process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY!}
      baseUrl={process.env.LATCHKEY_BASE_URL!}
    >
      <AuthHandler />
    </AuthProvider>
  );
}
