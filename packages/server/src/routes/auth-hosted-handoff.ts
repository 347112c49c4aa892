import { KnownErrors } from "@latchkey/protocol/errors";
import { hostedHandoffBody, hostedHandoffResponse, hostedHandoffSignInBody, signInResponse } from "@latchkey/protocol/schemas";
import { defineRoute, VERIFICATION_CODE_ERRORS } from "../http/route.js";
import { createHandoffCode, signInWithHandoffCode } from "../services/hosted-handoff.js";

const TAGS = ["Hosted pages"];

/**
 * The two halves of the session hand-off between the hosted handler pages and the app on another origin
 * (services/hosted-handoff.ts). Client access: the hosted page and the app are both browsers.
 */
export const hostedHandoffRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/hosted-pages/handoff",
    summary: "Hand the session of a hosted page to the app",
    description:
      "A Latchkey extension. Called by a hosted handler page for its signed-in user: a one-time code for the app's page (`redirect_uri`, " +
      "trusted by the project) and the app's PKCE challenge (S256). The page then sends the person to `redirect_uri` with the code.",
    tags: TAGS,
    access: ["client"],
    requiresUser: true,
    request: { body: hostedHandoffBody },
    response: { description: "The one-time code, valid for five minutes.", schema: hostedHandoffResponse },
    errors: [KnownErrors.RedirectUrlNotWhitelisted],
    handler: (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      return createHandoffCode(db, env, auth.project, auth.user!.id, body);
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/hosted-pages/handoff/sign-in",
    summary: "Sign in with a hand-off code",
    description:
      "A Latchkey extension. Called by the app on the page a hosted handler page sent the person to: the code, the PKCE verifier behind the " +
      "challenge it was made for, and the same `redirect_uri`. Answers with a new session of the app.",
    tags: TAGS,
    access: ["client"],
    request: { body: hostedHandoffSignInBody },
    response: { description: "The person, signed in in the app.", schema: signInResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      return signInWithHandoffCode(db, env, auth.project, body);
    },
  }),
];
