import { AuthAppElement } from "@latchkey/elements/app";
import { createComponent as wrapElement } from "@lit/react";
import * as React from "react";

/** `<auth-app>`: the app configuration the elements inside it use (prefer `AuthProvider`, which also feeds the hooks). Its children are React's. */
export const AuthApp = wrapElement({
  react: React,
  tagName: "auth-app",
  elementClass: AuthAppElement,
  displayName: "AuthApp",
});
