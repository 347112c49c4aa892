import { KnownError } from "@latchkey/protocol/errors/known-error";
import { PasskeyAuthenticationFailed, PasskeyRegistrationFailed, PasskeyWebAuthnError } from "@latchkey/protocol/errors/passkeys";
import { createCredential, getCredential, loadWebAuthn, WebAuthnCeremonyError } from "./webauthn.js";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import { internalsOf, type ClientApp } from "../apps/client-app.js";
import type { RedirectOptions, SignInResult } from "../apps/client-auth-actions.js";

/**
 * Passkeys (WebAuthn; the ceremonies are in webauthn.ts, whose library shares one AbortController among them: any
 * passkey call first cancels a pending one, e.g. the conditional-UI request waiting on the email field).
 * The server answers with a placeholder RP id that the page replaces with its own
 * hostname (the server then checks it against the project's trusted domains), as the protocol's client does.
 */
const RP_ID_PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";

/** Registers a new passkey for the signed-in user. */
export async function registerPasskey(app: ClientApp): Promise<void> {
  const { ctx } = internalsOf(app);
  // The ceremony's library loads while the server answers (a failure shows when the ceremony starts).
  loadWebAuthn().catch(() => {});
  let initiation: { options_json: { rp: { id?: string } } & Record<string, unknown>; code: string };
  try {
    initiation = await ctx.call({ method: "POST", path: "/auth/passkey/initiate-passkey-registration", body: {} });
  } catch (error) {
    // Known errors (passkeys not enabled, not signed in) say what is wrong; anything else gets the protocol's message.
    if (error instanceof KnownError) throw error;
    throw new PasskeyRegistrationFailed("Failed to get initiation options for passkey registration");
  }
  const options = initiation.options_json;
  if (options.rp.id === RP_ID_PLACEHOLDER) options.rp.id = location.hostname;
  let credential;
  try {
    credential = await createCredential(options);
  } catch (error) {
    if (error instanceof WebAuthnCeremonyError) throw new PasskeyWebAuthnError(error.message, error.code);
    throw new PasskeyRegistrationFailed("Failed to start passkey registration due to unknown error");
  }
  await ctx.call({ method: "POST", path: "/auth/passkey/register", body: { credential, code: initiation.code } });
  await app.$user.refresh();
}

/**
 * Signs in with a passkey. `autofill: true` starts the conditional-UI request behind an input with
 * `autocomplete="username webauthn"`: it waits until the person picks a passkey from the browser's
 * suggestions (and is cancelled by any other passkey call).
 */
export async function signInWithPasskey(app: ClientApp, options: { autofill?: boolean } & RedirectOptions = {}): Promise<SignInResult> {
  const { ctx, completeSignIn } = internalsOf(app);
  loadWebAuthn().catch(() => {});
  let initiation: { options_json: { rpId?: string } & Record<string, unknown>; code: string };
  try {
    initiation = await ctx.call({ method: "POST", path: "/auth/passkey/initiate-passkey-authentication", body: {}, session: null });
  } catch (error) {
    if (error instanceof KnownError) throw error;
    throw new PasskeyAuthenticationFailed("Failed to get initiation options for passkey authentication");
  }
  const requestOptions = initiation.options_json;
  if (requestOptions.rpId === RP_ID_PLACEHOLDER) requestOptions.rpId = location.hostname;
  let assertion;
  try {
    assertion = await getCredential(requestOptions, options.autofill ?? false);
  } catch (error) {
    if (error instanceof WebAuthnCeremonyError) throw new PasskeyWebAuthnError(error.message, error.code);
    throw new PasskeyAuthenticationFailed("Failed to sign in with passkey");
  }
  // Known errors of the sign-in itself (e.g. MULTI_FACTOR_AUTHENTICATION_REQUIRED) reach the caller as they are.
  const response = await ctx.call<SignInResponse>({ method: "POST", path: "/auth/passkey/sign-in", body: { authentication_response: assertion, code: initiation.code }, session: null });
  return completeSignIn(response, options);
}
