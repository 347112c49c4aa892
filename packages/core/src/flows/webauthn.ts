/**
 * The browser side of WebAuthn ceremonies, written here rather than taken from @simplewebauthn/browser: the
 * drop-in sign-in bundle must stay within 20 KB gzip, and this is a fifth of that library's size. It turns
 * the server's JSON options into the browser's binary form and the credential back into JSON (the format
 * @simplewebauthn/server verifies), keeps one AbortController for all ceremonies (a new ceremony cancels a
 * pending one, such as the conditional-UI request behind the email field), and names browser failures with
 * the protocol's WebAuthn error codes (SPEC.md §8).
 */

type Json = Record<string, unknown>;

const toBuffer = (base64url: string): ArrayBuffer => {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "===".slice((base64.length + 3) % 4)), (c) => c.charCodeAt(0)).buffer;
};
const toBase64url = (buffer: ArrayBuffer | null | undefined): string | undefined =>
  buffer ? btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : undefined;
const credentialIds = (list: unknown) => (list as Array<Json> | undefined)?.map((c) => ({ ...c, id: toBuffer(c.id as string) }));

/** A browser failure of a ceremony, with the protocol's code (`ERROR_CEREMONY_ABORTED`, …) as its name. */
export class WebAuthnCeremonyError extends Error {
  constructor(message: string, readonly code: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = code;
  }
}

let pending: AbortController | undefined;

function abortSignal(): AbortSignal {
  pending?.abort(new DOMException("Cancelled by a new passkey request", "AbortError"));
  pending = new AbortController();
  return pending.signal;
}

export async function createCredential(options: Json): Promise<Json> {
  const user = options.user as Json;
  const publicKey = {
    ...options,
    challenge: toBuffer(options.challenge as string),
    user: { ...user, id: toBuffer(user.id as string) },
    excludeCredentials: credentialIds(options.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
  let credential: PublicKeyCredential;
  try {
    credential = (await navigator.credentials.create({ publicKey, signal: abortSignal() })) as PublicKeyCredential;
  } catch (error) {
    throw ceremonyError(error, "registration", publicKey.rp.id);
  }
  const response = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports: response.getTransports?.() ?? [],
      publicKeyAlgorithm: response.getPublicKeyAlgorithm?.(),
      publicKey: toBase64url(response.getPublicKey?.()),
      authenticatorData: toBase64url(response.getAuthenticatorData?.()),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

export async function getCredential(options: Json, autofill: boolean): Promise<Json> {
  const publicKey = {
    ...options,
    challenge: toBuffer(options.challenge as string),
    allowCredentials: autofill ? [] : credentialIds(options.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
  let credential: PublicKeyCredential;
  try {
    credential = (await navigator.credentials.get({ publicKey, signal: abortSignal(), ...(autofill ? { mediation: "conditional" as CredentialMediationRequirement } : {}) })) as PublicKeyCredential;
  } catch (error) {
    throw ceremonyError(error, "authentication", publicKey.rpId);
  }
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: toBase64url(response.userHandle),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

/** The browser's DOMException of a failed ceremony, named as the protocol's WebAuthn errors name it. */
function ceremonyError(error: unknown, ceremony: "registration" | "authentication", rpId: string | undefined): Error {
  const name = (error as { name?: string })?.name;
  const make = (message: string, code: string) => new WebAuthnCeremonyError(message, code, { cause: error });
  const Ceremony = ceremony === "registration" ? "Registration" : "Authentication";
  switch (name) {
    case "AbortError":
      return make(`${Ceremony} ceremony was sent an abort signal`, "ERROR_CEREMONY_ABORTED");
    case "ConstraintError":
      return ceremony === "registration"
        ? make("Discoverable credentials were required but no available authenticator supported it", "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT")
        : make("User verification was required but no available authenticator supported it", "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT");
    case "InvalidStateError":
      if (ceremony === "registration") return make("The authenticator was previously registered", "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED");
      break;
    case "NotSupportedError":
      if (ceremony === "registration") return make("No entry in pubKeyCredParams was of type \"public-key\"", "ERROR_MALFORMED_PUBKEYCREDPARAMS");
      break;
    case "SecurityError":
      return location.hostname === "localhost" || /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(location.hostname)
        ? make(`The RP ID "${rpId}" is invalid for this domain`, "ERROR_INVALID_RP_ID")
        : make(`${location.hostname} is an invalid domain`, "ERROR_INVALID_DOMAIN");
    case "TypeError":
      if (ceremony === "registration") return make("User ID was not between 1 and 64 characters", "ERROR_INVALID_USER_ID_LENGTH");
      break;
    case "UnknownError":
      return make("The authenticator was unable to process the specified options, or could not create a new assertion signature", "ERROR_AUTHENTICATOR_GENERAL_ERROR");
  }
  return make((error as Error)?.message ?? String(error), "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY");
}
