import { createElement as h, version } from "react";
import { AuthProvider, AuthSignIn, AuthUserButton, useUser } from "@latchkey/react";

/**
 * The app of packages/react/README.md's first example (a Header that reads the user, shows "Loading…", then the
 * user button or the sign-in form), with the signed-in address written out for the test to read. Rendered
 * to HTML by react-dom/server and hydrated in Chromium by lowest-react.test.ts, with the lowest React the
 * package supports.
 */
export interface AppOptions {
  projectId: string;
  publishableClientKey: string;
  baseUrl: string;
}

function Header() {
  const user = useUser(); // undefined while loading, null when signed out
  if (user === undefined) return h("p", null, "Loading…");
  return user ? h("p", null, h(AuthUserButton, { showName: true }), `Hello ${user.primaryEmail}`) : h(AuthSignIn, { noRedirect: true });
}

export function App(options: AppOptions) {
  return h("main", { "data-react": version }, h(AuthProvider, options, h(Header)));
}
