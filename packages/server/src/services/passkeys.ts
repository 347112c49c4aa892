import { KnownErrors, type KnownError } from "@latchkey/protocol/errors";
import {
  PASSKEY_RP_ID_SENTINEL,
  type InitiatePasskeyResponse,
  type PasskeyRegisterResponse,
  type PasskeySignInResponse,
} from "@latchkey/protocol/schemas";
import type { AuthenticationResponseJSON, WebAuthnCredential, RegistrationResponseJSON } from "@simplewebauthn/server";
import { hostedPagesOrigin } from "../config/hosted-pages.js";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import { isLocalhost, isUrlUnderTrustedDomain, trustedDomainBaseUrls } from "../config/trusted-domains.js";
import type { Db } from "../db/connect.js";
import { emitIfUserReadChanged, watchUserRead } from "./user-updated-events.js";
import type { Env } from "../env.js";
import { finishSignIn } from "./mfa-gate.js";
import { consumePasskeyChallenge, storePasskeyChallenge } from "./passkey-challenges.js";
import type { ProjectRow } from "./projects.js";

type WebAuthnLibrary = typeof import("@simplewebauthn/server") & Pick<typeof import("@simplewebauthn/server/helpers"), "isoBase64URL">;
let webAuthnLibrary: Promise<WebAuthnLibrary> | undefined;

/**
 * @simplewebauthn/server, loaded by the first passkey ceremony rather than at start: with the ASN.1 and X.509
 * code it requires (@peculiar/*), its module evaluation was ~100 ms of every start's CPU (issue 35).
 */
function webAuthn(): Promise<WebAuthnLibrary> {
  return (webAuthnLibrary ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]).then(([server, { isoBase64URL }]) => ({ ...server, isoBase64URL })));
}

/**
 * Passkeys (WebAuthn; SPEC.md §4 "Passkey", §5 "WebAuthn", issue 8), as the protocol's reference has them:
 * a user holds at most one passkey, a new registration replaces it, and `passkey_auth_enabled` says
 * whether the user may sign in with it.
 *
 * The options handed out carry a sentinel RP id that the client library replaces with the page's
 * hostname, so one project can serve several trusted domains. Completion therefore decides the RP: the
 * requesting page's origin (its Origin header, else the origin the browser wrote into clientDataJSON) must
 * be a trusted domain of the project, or localhost when the project allows it, or this server's own pages
 * for the project (below), and its hostname is the RP id the authenticator must have signed for. The
 * WebAuthn checks themselves (challenge, origin, RP id hash, user presence, signature, counter) are
 * @simplewebauthn/server's.
 */

/** WebAuthn user handles are 1 to 64 bytes (WebAuthn §5.4.3); ours are the user's UUID in UTF-8 (36). */
const MAX_USER_HANDLE_BYTES = 64;

/** What decides which pages may hold a project's passkeys. */
interface PasskeySites {
  config: ProjectConfig;
  /** This server's public origin while it hosts the project's handler pages (config/hosted-pages.ts). */
  hostedPagesOrigin: string | undefined;
}

function requirePasskeysEnabled(env: Pick<Env, "publicUrl">, project: ProjectRow): PasskeySites {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!config.auth.passkey.allowSignIn) throw new KnownErrors.PasskeyAuthenticationNotEnabled();
  return { config, hostedPagesOrigin: hostedPagesOrigin(env, config) };
}

interface RelyingParty {
  origin: string;
  rpId: string;
}

/**
 * The RP for a page at `origin`, or undefined when the project does not trust it. Origins are compared
 * whole (scheme, host, port); IP addresses are refused because WebAuthn RP ids are domains.
 *
 * The project's hosted handler pages run on this server's public origin, which is none of its trusted
 * domains; while the server hosts them, exactly that origin is an RP too, with the server's host name as RP
 * id. So passkeys made there belong to the server's host name, and those made in the app's own pages to the
 * app's (README, "Hosted handler pages"). Localhost is no exception here: a server whose public URL is on
 * localhost (development) serves its pages there, and only that origin, port included, is accepted; other
 * localhost pages still need the project's `allowLocalhost`.
 */
function relyingPartyFor({ config, hostedPagesOrigin }: PasskeySites, origin: string): RelyingParty | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  // A real Origin is exactly scheme://host[:port]; anything with a path, credentials or "null" is not one.
  if (url.origin !== origin || (url.protocol !== "https:" && url.protocol !== "http:")) return undefined;
  const rpId = url.hostname;
  if (rpId.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(rpId)) return undefined;
  if (origin === hostedPagesOrigin) return { origin, rpId };
  if (isLocalhost(url) && config.domains.allowLocalhost) return { origin, rpId };
  // Otherwise localhost is a host like any other: a trusted domain `http://*:8103` admits `http://localhost:8103`.
  const trusted = trustedDomainBaseUrls(config).some((domain) => {
    // Only the trusted domain's origin part matters here: a passkey belongs to a host, not to a path.
    const domainOrigin = /^https?:\/\/[^/?#]+/i.exec(domain)?.[0];
    return domainOrigin !== undefined && isUrlUnderTrustedDomain(url, domainOrigin);
  });
  return trusted ? { origin, rpId } : undefined;
}

/**
 * The origin the browser wrote into a response's client data. Read leniently, as the protocol does: base64url
 * or padded standard base64. Undefined when it cannot be read.
 */
function clientDataOrigin(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== "string") return undefined;
  try {
    const clientData: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64").toString("utf8"));
    const origin = (clientData as { origin?: unknown } | null)?.origin;
    return typeof origin === "string" ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** A binary field of a credential in base64url, whichever base64 alphabet (and padding) the client used. */
function asBase64Url(value: unknown): unknown {
  return typeof value === "string" ? Buffer.from(value, "base64").toString("base64url") : value;
}

/**
 * The RP of a completed sign-in: from the page's Origin header, else from the signed client data; refused with
 * the reference's text when the project does not trust it.
 */
function relyingPartyOfSignIn(sites: PasskeySites, pageOrigin: string | undefined, clientDataJSON: string): RelyingParty {
  let origin = pageOrigin;
  if (origin === undefined) {
    origin = clientDataOrigin(clientDataJSON);
    if (origin === undefined) throw authenticationFailed("The client data of the passkey response could not be read");
  }
  const rp = relyingPartyFor(sites, origin);
  if (!rp) throw authenticationFailed(AUTHENTICATION_ORIGIN_NOT_ALLOWED);
  return rp;
}

const AUTHENTICATION_ORIGIN_NOT_ALLOWED = "Passkey authentication failed because the origin is not allowed";

/**
 * An assertion as the WebAuthn verification takes it: every binary field in base64url, whichever base64 the
 * client used (the protocol's server reads padded standard base64 too), so that the credential id it is looked
 * up by and the id the verification compares are the stored form.
 */
function authenticationResponseOf(value: AuthenticationResponseJSON): AuthenticationResponseJSON {
  const { clientDataJSON, authenticatorData, signature, userHandle } = value.response;
  return {
    ...value,
    id: asBase64Url(value.id) as string,
    rawId: asBase64Url(value.rawId) as string,
    response: {
      ...value.response,
      clientDataJSON: asBase64Url(clientDataJSON) as string,
      authenticatorData: asBase64Url(authenticatorData) as string,
      signature: asBase64Url(signature) as string,
      ...(userHandle === undefined ? {} : { userHandle: asBase64Url(userHandle) as string }),
    },
  };
}

/** Refuses an initiate call from a page the project does not trust, before the browser prompts anyone. */
function checkInitiatingPage(sites: PasskeySites, pageOrigin: string | undefined, fail: (message: string) => KnownError): void {
  if (pageOrigin !== undefined && !relyingPartyFor(sites, pageOrigin)) {
    throw fail(`The origin ${JSON.stringify(pageOrigin)} is not a trusted domain of this project`);
  }
}

const registrationFailed = (message: string) => new KnownErrors.PasskeyRegistrationFailed(message);
const authenticationFailed = (message: string) => new KnownErrors.PasskeyAuthenticationFailed(message);

export interface PasskeyUser {
  id: string;
  /** What the authenticator shows in its account picker: the primary email, else the display name. */
  name: string | null;
  displayName: string | null;
}

/**
 * The challenge of a new ceremony: random, or `MOCK` when the environment asks for the protocol's fixed test
 * challenge (STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING, dev mode only), so that client test suites
 * written for the protocol's server, with credentials recorded for it, run unchanged.
 */
function challengeFor(env: Env): string | undefined {
  // A string challenge is taken as UTF-8 bytes: the options carry base64url("MOCK"), as the protocol's do.
  return env.devMode && env.hardcodedPasskeyChallenge ? "MOCK" : undefined;
}

/** `initiate-passkey-registration`: options for `navigator.credentials.create()` and the code of their challenge. */
export async function initiatePasskeyRegistration(db: Db, env: Env, project: ProjectRow, user: PasskeyUser, pageOrigin: string | undefined): Promise<InitiatePasskeyResponse> {
  const sites = requirePasskeysEnabled(env, project);
  checkInitiatingPage(sites, pageOrigin, registrationFailed);
  const userHandle = new TextEncoder().encode(user.id);
  if (userHandle.length < 1 || userHandle.length > MAX_USER_HANDLE_BYTES) throw new Error(`user handle of ${userHandle.length} bytes`);
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName: project.display_name,
    rpID: PASSKEY_RP_ID_SENTINEL,
    userID: userHandle,
    userName: user.name ?? user.displayName ?? user.id,
    userDisplayName: user.displayName ?? user.name ?? "",
    attestationType: "none",
    // Discoverable credentials: sign-in asks for "any passkey of this site" (no allowCredentials list).
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    challenge: challengeFor(env),
  });
  // The protocol's options carry no `hints` (newer WebAuthn libraries add an empty list).
  const { hints: _hints, ...optionsJson } = options;
  const code = await storePasskeyChallenge(db, { projectId: project.id, ceremony: "registration", challenge: options.challenge, userId: user.id });
  return { options_json: optionsJson as unknown as Record<string, unknown>, code };
}

const ORIGIN_NOT_ALLOWED = "Passkey registration failed because the origin is not allowed";

/**
 * `register`: verifies the new credential against its challenge and makes it the user's passkey. The
 * credential is free-form JSON, as in the protocol: first its client data's origin must be a page the project
 * trusts (checked before the code, as the protocol does), then the WebAuthn verification decides the rest.
 */
export async function registerPasskey(
  db: Db,
  env: Env,
  project: ProjectRow,
  userId: string,
  input: { credential: unknown; code: string; pageOrigin: string | undefined },
): Promise<PasskeyRegisterResponse> {
  const sites = requirePasskeysEnabled(env, project);
  const response = registrationCredentialOf(input.credential);
  const origin = clientDataOrigin(response.response.clientDataJSON);
  if (origin === undefined) throw registrationFailed("Passkey registration failed because the client data of the credential could not be read");
  if (!relyingPartyFor(sites, origin)) throw registrationFailed(ORIGIN_NOT_ALLOWED);
  const stored = await consumePasskeyChallenge(db, { projectId: project.id, ceremony: "registration", code: input.code });
  // Another user's registration code does not exist for this one.
  if (stored.userId !== userId) throw new KnownErrors.VerificationCodeNotFound();
  // The page that sent the request (when the browser says) is the RP; its client data must name it too.
  const rp = relyingPartyFor(sites, input.pageOrigin ?? origin);
  if (!rp) throw registrationFailed(ORIGIN_NOT_ALLOWED);

  const { verifyRegistrationResponse } = await webAuthn();
  let registration;
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: stored.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      expectedType: "webauthn.create",
      requireUserVerification: false,
    });
    registration = verified.verified ? verified.registrationInfo : undefined;
  } catch (error) {
    throw registrationFailed(`Passkey registration failed because the verification response is invalid: ${(error as Error).message}`);
  }
  if (!registration) throw registrationFailed("Passkey registration failed because the verification response is invalid");
  const { credential } = registration;

  await db.transaction().execute(async (trx) => {
    // The user's row lock serialises registrations of one user, keeping "at most one passkey" true.
    const owner = await trx.selectFrom("users").select("id").where("project_id", "=", project.id).where("id", "=", userId).forUpdate().executeTakeFirst();
    if (!owner) throw new KnownErrors.UserNotFound();
    // The first passkey turns passkey sign-in on (passkey_auth_enabled): user.updated.
    const watch = await watchUserRead(trx, project.id, userId);
    await trx.deleteFrom("passkey_credentials").where("project_id", "=", project.id).where("user_id", "=", userId).execute();
    const inserted = await trx
      .insertInto("passkey_credentials")
      .values({
        project_id: project.id,
        user_id: userId,
        credential_id: credential.id,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        device_type: registration.credentialDeviceType,
        backed_up: registration.credentialBackedUp,
      })
      .onConflict((oc) => oc.columns(["project_id", "credential_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) throw registrationFailed("This passkey is already registered to another account");
    await trx.updateTable("users").set({ passkey_auth_enabled: true }).where("id", "=", userId).execute();
    await emitIfUserReadChanged(watch);
  });
  return { user_handle: credential.id };
}

/**
 * A registration credential as the WebAuthn verification takes it, from whatever JSON the client sent: binary
 * fields of the response in base64url whichever base64 they came in. Anything that is not even shaped like a
 * credential is PASSKEY_REGISTRATION_FAILED.
 */
function registrationCredentialOf(credential: unknown): RegistrationResponseJSON {
  const value = credential as { response?: Record<string, unknown> } | null;
  if (typeof value !== "object" || value === null || typeof value.response !== "object" || value.response === null) {
    throw registrationFailed("Passkey registration failed because the credential is not a WebAuthn registration response");
  }
  const response = { ...value.response, clientDataJSON: asBase64Url(value.response.clientDataJSON), attestationObject: asBase64Url(value.response.attestationObject) };
  return { clientExtensionResults: {}, ...value, response } as unknown as RegistrationResponseJSON;
}

/** `initiate-passkey-authentication`: options for `navigator.credentials.get()` and the code of their challenge. */
export async function initiatePasskeyAuthentication(db: Db, env: Env, project: ProjectRow, pageOrigin: string | undefined): Promise<InitiatePasskeyResponse> {
  const sites = requirePasskeysEnabled(env, project);
  checkInitiatingPage(sites, pageOrigin, authenticationFailed);
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: PASSKEY_RP_ID_SENTINEL,
    userVerification: "preferred",
    allowCredentials: [],
    challenge: challengeFor(env),
  });
  const code = await storePasskeyChallenge(db, { projectId: project.id, ceremony: "authentication", challenge: options.challenge, userId: null });
  return { options_json: options as unknown as Record<string, unknown>, code };
}

/**
 * `sign-in`: verifies the assertion with the stored public key, moves the signature counter forward and
 * signs the passkey's user in (through the MFA gate, like every sign-in path).
 */
export async function signInWithPasskey(
  db: Db,
  env: Env,
  project: ProjectRow,
  input: { response: AuthenticationResponseJSON; code: string; pageOrigin: string | undefined },
): Promise<PasskeySignInResponse> {
  const sites = requirePasskeysEnabled(env, project);
  const response = authenticationResponseOf(input.response);
  const stored = await consumePasskeyChallenge(db, { projectId: project.id, ceremony: "authentication", code: input.code });
  const passkey = await db
    .selectFrom("passkey_credentials as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .select(["p.id", "p.user_id", "p.credential_id", "p.public_key", "p.counter", "p.transports", "u.totp_secret", "u.passkey_auth_enabled"])
    .where("p.project_id", "=", project.id)
    .where("p.credential_id", "=", response.id)
    .executeTakeFirst();
  if (!passkey) throw authenticationFailed("Passkey not found");
  if (!passkey.passkey_auth_enabled) throw authenticationFailed("Passkey authentication is not enabled for this user");
  const rp = relyingPartyOfSignIn(sites, input.pageOrigin, response.response.clientDataJSON);
  // The authenticator returns the user handle it stored at registration; it must name the passkey's owner. Not
  // with the hardcoded test challenge: suites replay credentials recorded against another server, whose user
  // ids are in them.
  const { isoBase64URL, verifyAuthenticationResponse } = await webAuthn();
  const userHandle = response.response.userHandle;
  if (userHandle && challengeFor(env) === undefined && new TextDecoder().decode(isoBase64URL.toBuffer(userHandle)) !== passkey.user_id) {
    throw authenticationFailed("The passkey's user handle does not match its account");
  }

  const storedCounter = Number(passkey.counter);
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: stored.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      expectedType: "webauthn.get",
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: storedCounter,
        transports: passkey.transports as WebAuthnCredential["transports"],
      },
      requireUserVerification: false,
    });
    if (!verified.verified) throw new Error("the signature does not match the stored public key");
    newCounter = verified.authenticationInfo.newCounter;
  } catch (error) {
    throw authenticationFailed(`Passkey sign-in failed because the authentication response is invalid: ${(error as Error).message}`);
  }

  // Conditional, so two assertions racing with the same counter (a cloned authenticator) cannot both pass:
  // the counter must still be below the new value (authenticators without a counter always report 0). It
  // is stored before the MFA gate, which may answer "MFA required": the assertion was used either way.
  const moved = await db
    .updateTable("passkey_credentials")
    .set({ counter: newCounter, last_used_at: new Date() })
    .where("id", "=", passkey.id)
    .where((eb) => (newCounter === 0 ? eb("counter", "=", 0) : eb("counter", "<", newCounter)))
    .returning("id")
    .executeTakeFirst();
  if (!moved) throw authenticationFailed("Passkey sign-in failed because the signature counter did not increase");
  return finishSignIn(db, env, project, { id: passkey.user_id, totp_secret: passkey.totp_secret }, { isNewUser: false });
}
