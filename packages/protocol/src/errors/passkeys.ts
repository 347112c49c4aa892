/** Errors about passkeys (WebAuthn): registering them and signing in with them. */
import { defineKnownError } from "./known-error.js";

export const PasskeyAuthenticationNotEnabled = defineKnownError("PASSKEY_AUTHENTICATION_NOT_ENABLED", {
  status: 400,
  build: () => ({ message: "Passkey authentication is not enabled for this project." }),
  fromDetails: () => [],
});

export const PasskeyRegistrationFailed = defineKnownError("PASSKEY_REGISTRATION_FAILED", {
  status: 400,
  build: (message: string) => ({ message }),
  fromDetails: (d) => [d?.message],
});

export const PasskeyWebAuthnError = defineKnownError("PASSKEY_WEBAUTHN_ERROR", {
  status: 400,
  build: (message: string, code: string) => ({ message, details: { message, code } }),
  fromDetails: (d) => [d?.message, d?.code],
});

export const PasskeyAuthenticationFailed = defineKnownError("PASSKEY_AUTHENTICATION_FAILED", {
  status: 400,
  build: (message: string) => ({ message }),
  fromDetails: (d) => [d?.message],
});
