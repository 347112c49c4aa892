import { createECDH, createHash, hkdfSync } from "node:crypto";
import type { JWK } from "jose";

/**
 * ES256 signing keys, derived from the server secret per token audience (a project, or its anonymous
 * users), so every server process sharing the secret signs and verifies the same keys without storing
 * private keys anywhere. Keys of previous secrets stay verifiable for rotation.
 */
export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

// Order of the P-256 group: the private scalar must lie in [1, n-1].
const P256_ORDER = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
const cache = new Map<string, SigningKey>();

export function deriveSigningKey(secret: string, audience: string): SigningKey {
  const cacheKey = `${secret}\u0000${audience}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  // 48 bytes reduced modulo n gives a scalar with negligible bias (FIPS 186-5 A.2.1).
  const material = Buffer.from(hkdfSync("sha256", secret, "latchkey-access-token-signing-key", audience, 48));
  const scalar = (BigInt("0x" + material.toString("hex")) % (P256_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, "0"), "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const publicPoint = ecdh.getPublicKey(); // 0x04 || x || y
  const x = publicPoint.subarray(1, 33).toString("base64url");
  const y = publicPoint.subarray(33, 65).toString("base64url");
  const kid = createHash("sha256").update(publicPoint).digest("base64url").slice(0, 16);
  const publicJwk: JWK = { kty: "EC", crv: "P-256", x, y, alg: "ES256", use: "sig", kid };
  const key: SigningKey = { kid, publicJwk, privateJwk: { ...publicJwk, d: d.toString("base64url") } };
  cache.set(cacheKey, key);
  return key;
}
