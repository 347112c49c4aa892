import { KnownErrors } from "@latchkey/protocol/errors";
import { emailWithCallbackBody, successResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { sendSignInInvitation } from "../services/sign-in-invitation.js";

/** `POST /internal/send-sign-in-invitation` (admin) `{ email, callback_url }` → `{ success: true }`. */
export const signInInvitationRoutes = [
  defineRoute({
    method: "post",
    path: "/internal/send-sign-in-invitation",
    summary: "Mail an invitation to sign in to the project",
    description: "The mail's link is `callback_url` itself (the app's sign-in page), which must be under a trusted domain.",
    tags: ["Emails"],
    access: ["admin"],
    request: { body: emailWithCallbackBody },
    response: { description: "The invitation was mailed.", schema: successResponse },
    errors: [KnownErrors.RedirectUrlNotWhitelisted],
    handler: async (c, { auth, body }) => {
      await sendSignInInvitation(c.get("deps"), auth.project, { email: body.email, callbackUrl: body.callback_url });
      return { success: true } as const;
    },
  }),
];
