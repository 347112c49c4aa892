import { z } from "zod";
import { signInResponse } from "./auth.js";

/**
 * Wire shapes of `/auth/passkey/*` (passkeys, WebAuthn; SPEC.md §4 "Passkey", §7 "Auth"). The credentials
 * are the JSON forms @simplewebauthn/browser produces (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`): binary fields are base64url strings, or standard base64, which is read too.
 * Only what the server reads is required; browsers add fields over time (`authenticatorAttachment`,
 * `publicKey`, …), so the objects are open, and the cryptographic checks happen in the server's WebAuthn
 * verification, not here.
 */

/** base64url, or padded standard base64 as some clients send it (the protocol's server reads both). */
const base64Url = z.string().regex(/^[A-Za-z0-9_+/-]*={0,2}$/, "must be base64url");

/** `POST /auth/passkey/initiate-passkey-registration` and `/initiate-passkey-authentication`: the client library sends `{}`. */
export const initiatePasskeyBody = z.strictObject({});

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

/**
 * `POST /auth/passkey/register`. As in the protocol, `credential` is free-form JSON (what the browser library
 * made of `navigator.credentials.create()`): the server reads it leniently (padded standard base64 too) and
 * the WebAuthn verification decides, answering PASSKEY_REGISTRATION_FAILED for anything it cannot use.
 */
export const passkeyRegisterBody = z.strictObject({
  credential: z.unknown().refine((value) => value !== undefined, { message: "must be defined" }),
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
export const initiatePasskeyResponse = z.strictObject({
  options_json: z.record(z.string(), z.unknown()),
  code: z.string(),
});
export type InitiatePasskeyResponse = z.infer<typeof initiatePasskeyResponse>;

/** Answer of `POST /auth/passkey/register`: the registered credential's id. */
export const passkeyRegisterResponse = z.strictObject({ user_handle: z.string() });
export type PasskeyRegisterResponse = z.infer<typeof passkeyRegisterResponse>;

/** Answer of `POST /auth/passkey/sign-in`. */
export const passkeySignInResponse = signInResponse;
export type PasskeySignInResponse = z.infer<typeof passkeySignInResponse>;
