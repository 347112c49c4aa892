import { createECDH, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { JWK } from "jose";
import type { Env } from "../env.js";
import { openSealedBytes, sealBytes } from "./sealed-text.js";

/**
 * ES256 signing keys of access tokens. A key *generation* is 32 random bytes (its seed); each token audience
 * (a project, or its anonymous users) gets its own key pair derived from the seed, so one generation serves
 * every project without a row per project. The generations live in PostgreSQL (services/signing-keys.ts
 * stores and rotates them), the seeds encrypted with a key derived from the server secret.
 */
export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: PublicJwk;
}

/** The public half as the JWKS publishes it: the reference's members in its order, without `use`. */
export interface PublicJwk {
  kty: "EC";
  alg: "ES256";
  crv: "P-256";
  x: string;
  y: string;
  kid: string;
}

// Order of the P-256 group: the private scalar must lie in [1, n-1].
const P256_ORDER = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
const cache = new Map<string, SigningKey>();

/** The key pair of one audience in one generation. */
export function deriveSigningKey(seed: Uint8Array, audience: string): SigningKey {
  // Every token signed asks for its key: found by the seed object the key ring holds, without hex-encoding the seed.
  let bySeed = bySeedObject.get(seed);
  if (!bySeed) bySeedObject.set(seed, (bySeed = new Map()));
  const known = bySeed.get(audience);
  if (known) return known;
  const key = deriveSigningKeyOnce(seed, audience);
  bySeed.set(audience, key);
  return key;
}
const bySeedObject = new WeakMap<Uint8Array, Map<string, SigningKey>>();

function deriveSigningKeyOnce(seed: Uint8Array, audience: string): SigningKey {
  const cacheKey = `${Buffer.from(seed).toString("hex")}\u0000${audience}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  // 48 bytes reduced modulo n gives a scalar with negligible bias (FIPS 186-5 A.2.1).
  const material = Buffer.from(hkdfSync("sha256", seed, "latchkey-access-token-signing-key", audience, 48));
  const scalar = (BigInt("0x" + material.toString("hex")) % (P256_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, "0"), "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const publicPoint = ecdh.getPublicKey(); // 0x04 || x || y
  const x = publicPoint.subarray(1, 33).toString("base64url");
  const y = publicPoint.subarray(33, 65).toString("base64url");
  const kid = createHash("sha256").update(publicPoint).digest("base64url").slice(0, 16);
  const publicJwk: PublicJwk = { kty: "EC", alg: "ES256", crv: "P-256", x, y, kid };
  const key: SigningKey = { kid, publicJwk, privateJwk: { ...publicJwk, d: d.toString("base64url") } };
  cache.set(cacheKey, key);
  return key;
}

export function newKeySeed(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

/** A seed encrypted under a server secret, and which secret that was (a fingerprint, never the secret). */
export interface WrappedSeed {
  ciphertext: Uint8Array;
  wrappingKeyId: string;
}

/** The HKDF purpose of the key that wraps seeds (crypto/sealed-text.ts); changing it would orphan every stored seed. */
const SEED_WRAP_PURPOSE = "latchkey-signing-key-wrap";

/** AES-256-GCM; the generation id is bound in as associated data, so a ciphertext cannot be moved to another row. */
export function wrapSeed(secret: string, generationId: string, seed: Uint8Array): WrappedSeed {
  const { sealed, keyId } = sealBytes(secret, SEED_WRAP_PURPOSE, generationId, seed);
  return { ciphertext: sealed, wrappingKeyId: keyId };
}

/**
 * The seed of a stored generation, decrypted with whichever of the secrets encrypted it (the current one or
 * a previous one, LATCHKEY_PREVIOUS_SERVER_SECRETS), and that secret; undefined when none of them did.
 */
export function unwrapSeed(secrets: readonly string[], generationId: string, wrapped: WrappedSeed): { seed: Uint8Array; secret: string } | undefined {
  const opened = openSealedBytes(secrets, SEED_WRAP_PURPOSE, generationId, { sealed: wrapped.ciphertext, keyId: wrapped.wrappingKeyId });
  return opened && { seed: opened.bytes, secret: opened.secret };
}

/**
 * What signing and verifying need: the keys of the generations the database holds, as this process last
 * read them. Implemented by services/signing-keys.ts.
 */
export interface SigningKeyRing {
  /** Changes whenever a generation is removed, so verifications remembered before no longer count. */
  readonly epoch: number;
  /** The current generation's key for the audience: what new tokens are signed with. */
  signingKey(audience: string): Promise<SigningKey>;
  /** The keys a verifier should know for the audience: current, then next. */
  publishedKeys(audience: string): Promise<SigningKey[]>;
  /** The key with this kid for the audience in any generation still kept (current, next, or retired). */
  verificationKey(audience: string, kid: string): Promise<SigningKey | undefined>;
}

// The ring a server's configuration signs with. Token functions take the configuration (`Env`) that every
// caller already has; the server attaches its ring to it at start (server.ts).
const rings = new WeakMap<Env, SigningKeyRing>();

export function attachSigningKeyRing(env: Env, ring: SigningKeyRing): void {
  rings.set(env, ring);
}

export function signingKeyRingOf(env: Env): SigningKeyRing {
  const ring = rings.get(env);
  if (!ring) throw new Error("No signing keys are attached to this configuration (startServer attaches them)");
  return ring;
}
