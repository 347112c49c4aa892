import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A WebAuthn authenticator in software, for server tests without a browser: it answers the options our
 * initiate routes hand out the way a platform authenticator behind `navigator.credentials` would, with a
 * real ES256 key pair, a "none" attestation (CBOR, WebAuthn §6.5) and signed assertions (§6.3.3). Like the
 * client library, it replaces the sentinel RP id with the page's hostname unless told otherwise, so tests
 * can also play a page that lies about where it is.
 *
 * Credentials are discoverable: `authenticate` picks the one stored for the RP id, as passkey sign-in
 * without an allow-list does.
 */

export interface PageContext {
  /** The page's origin, written into clientDataJSON (and sent as the Origin header by the tests). */
  origin: string;
  /** The RP id the authenticator scopes the credential to; defaults to the origin's hostname. */
  rpId?: string;
}

/** Bytes over a plain ArrayBuffer, as @simplewebauthn's helpers type them. */
type Bytes = Uint8Array<ArrayBuffer>;

interface StoredCredential {
  id: Bytes;
  rpId: string;
  userHandle: Bytes;
  privateKey: KeyObject;
  counter: number;
}

// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included.
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

function uint16(value: number): Uint8Array {
  const out = new Uint8Array(2);
  new DataView(out.buffer).setUint16(0, value);
  return out;
}

/** The EC2 / P-256 / ES256 public key as a COSE_Key map (RFC 9053 §7.1.1), as authenticators encode it. */
function coseKeyOf(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, isoBase64URL.toBuffer(jwk.x!)],
    [-3, isoBase64URL.toBuffer(jwk.y!)],
  ]);
  return isoCBOR.encode(cose);
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Bytes {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /** `navigator.credentials.create()` for the initiate-registration options: a RegistrationResponseJSON. */
  register(options: any, page: PageContext) {
    const rpId = page.rpId ?? new URL(page.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credential: StoredCredential = {
      id: new Uint8Array(randomBytes(32)),
      rpId,
      userHandle: isoBase64URL.toBuffer(options.user.id),
      privateKey,
      counter: 0,
    };
    // A platform authenticator keeps one discoverable credential per RP and user: a new one replaces it.
    const index = this.credentials.findIndex((c) => c.rpId === rpId && isoBase64URL.fromBuffer(c.userHandle) === options.user.id);
    if (index >= 0) this.credentials.splice(index, 1);
    this.credentials.push(credential);

    const authData = concat(
      sha256(rpId),
      Uint8Array.of(FLAG_UP | FLAG_UV | FLAG_AT),
      uint32(credential.counter),
      new Uint8Array(16), // AAGUID: all zero, as with "none" attestation
      uint16(credential.id.length),
      credential.id,
      coseKeyOf(publicKey),
    );
    const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, never>>([
      ["fmt", "none"],
      ["attStmt", new Map<string, never>()],
      ["authData", authData],
    ]));
    const id = isoBase64URL.fromBuffer(credential.id);
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientData("webauthn.create", options.challenge, page.origin)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** `navigator.credentials.get()` for the initiate-authentication options: an AuthenticationResponseJSON. */
  authenticate(options: any, page: PageContext, credential = this.credentialFor(page)) {
    const rpId = page.rpId ?? new URL(page.origin).hostname;
    credential.counter += 1;
    const authData = concat(sha256(rpId), Uint8Array.of(FLAG_UP | FLAG_UV), uint32(credential.counter));
    const clientDataJSON = clientData("webauthn.get", options.challenge, page.origin);
    // ES256 signatures are DER-encoded ECDSA over authenticatorData || SHA-256(clientDataJSON) (§6.3.3 step 11).
    const signature = sign("sha256", concat(authData, sha256(clientDataJSON)), credential.privateKey);
    const id = isoBase64URL.fromBuffer(credential.id);
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(new Uint8Array(signature)),
        userHandle: isoBase64URL.fromBuffer(credential.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The discoverable credential for the page's RP id (the most recent one). */
  credentialFor(page: PageContext): StoredCredential {
    const rpId = page.rpId ?? new URL(page.origin).hostname;
    const credential = this.credentials.findLast((c) => c.rpId === rpId);
    if (!credential) throw new Error(`no passkey for ${rpId} on this authenticator`);
    return credential;
  }
}
