import { Navigate } from "@tanstack/react-router";
import { AuthSignIn, useUser } from "@latchkey/react";

/** Our own sign-in widget, on the internal project; once someone is signed in, on to their projects. */
export function SignInPage() {
  const user = useUser();
  if (user) return <Navigate to="/projects" replace />;
  return (
    <section>
      <h1 className="dashboard-title">Sign in to manage your projects</h1>
      {/* No redirect: the page follows the signed-in user itself, without a reload. */}
      <AuthSignIn noRedirect />
    </section>
  );
}
