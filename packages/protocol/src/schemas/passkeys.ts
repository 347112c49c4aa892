import { z } from "zod";
import type { SignInResponse } from "./auth.js";

/**
 * Wire shapes of `/auth/passkey/*` (passkeys, WebAuthn; SPEC.md §4 "Passkey", §7 "Auth"). The credentials
 * are the JSON forms @simplewebauthn/browser produces (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`): binary fields are base64url strings. Only what the server reads is
 * required; browsers add fields over time (`authenticatorAttachment`, `publicKey`, …), so the objects are
 * open, and the cryptographic checks happen in the server's WebAuthn verification, not here.
 */

const base64Url = z.string().regex(/^[A-Za-z0-9_-]*$/, "must be base64url");

/** `POST /auth/passkey/initiate-passkey-registration` and `/initiate-passkey-authentication`: the client library sends `{}`. */
export const initiatePasskeyBody = z.strictObject({});

/** What the authenticator answered to `navigator.credentials.create()`. */
export const passkeyRegistrationCredential = z.looseObject({
  id: base64Url.min(1),
  rawId: base64Url.min(1),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: base64Url.min(1),
    attestationObject: base64Url.min(1),
    transports: z.array(z.string()).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

/** What the authenticator answered to `navigator.credentials.get()`. */
export const passkeyAuthenticationCredential = z.looseObject({
  id: base64Url.min(1),
  rawId: base64Url.min(1),
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: base64Url.min(1),
    authenticatorData: base64Url.min(1),
    signature: base64Url.min(1),
    userHandle: base64Url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

/** `POST /auth/passkey/register` */
export const passkeyRegisterBody = z.strictObject({
  credential: passkeyRegistrationCredential,
  code: z.string(),
});

/** `POST /auth/passkey/sign-in` */
export const passkeySignInBody = z.strictObject({
  authentication_response: passkeyAuthenticationCredential,
  code: z.string(),
});

/**
 * The RP id the initiate routes put in `options_json`. The client library refuses any other value and puts
 * the page's hostname in its place (SPEC.md §5 "WebAuthn"); the server checks that hostname on completion.
 */
export const PASSKEY_RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";

/** Answer of both initiate routes: WebAuthn options for the browser and the code that names their challenge. */
export interface InitiatePasskeyResponse {
  options_json: Record<string, unknown>;
  code: string;
}

/** Answer of `POST /auth/passkey/register`: the registered credential's id. */
export interface PasskeyRegisterResponse {
  user_handle: string;
}

/** Answer of `POST /auth/passkey/sign-in`. */
export type PasskeySignInResponse = SignInResponse;
