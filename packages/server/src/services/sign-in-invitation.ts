import { KnownErrors } from "@latchkey/protocol/errors";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import { sendEmail } from "../email/send.js";
import type { AppDeps } from "./deps.js";
import type { ProjectRow } from "./projects.js";

/**
 * Sign-in invitation (admin, `POST /internal/send-sign-in-invitation`): mails an invitation to sign in to
 * the project. As in the protocol, the mail's link is the callback URL itself (the app's sign-in page):
 * there is no code, the person signs in or up there by any enabled method. Only an admin can send it, so
 * there is no per-address throttle, but the link must still be under a trusted domain.
 */
export async function sendSignInInvitation(deps: AppDeps, project: ProjectRow, input: { email: string; callbackUrl: string }): Promise<void> {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!isUrlTrustedForProject(deps.env, project.id, config, input.callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  await sendEmail(deps, project, { to: input.email, template: "sign_in_invitation", variables: { signInInvitationLink: input.callbackUrl } });
}
