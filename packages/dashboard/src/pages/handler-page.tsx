import { AuthHandler } from "@latchkey/react";

/** The widgets' own pages (sign-up, forgot password, mailed links): `<auth-handler>` picks one by the path. */
export function HandlerPage() {
  return <AuthHandler />;
}
