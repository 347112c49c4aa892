import { hash, randomBytes, timingSafeEqual } from "node:crypto";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const BASE32_CODES = Buffer.from(BASE32, "latin1");

/** A random string with at least `bits` bits of entropy, in lowercase base32 (safe in URLs and headers). */
export function randomSecret(bits = 224): string {
  const length = Math.ceil(bits / 5);
  // Each random byte replaced by its symbol in place and read as one string: a sign-in makes two of these, and
  // adding one character at a time built (and then flattened) a string of 52 pieces.
  const bytes = randomBytes(length);
  for (let i = 0; i < length; i++) bytes[i] = BASE32_CODES[bytes[i]! & 31]!;
  return bytes.toString("latin1");
}

/** Keys are high-entropy random strings, so one SHA-256 is enough to make a stolen table useless. */
export function hashSecret(secret: string): Uint8Array {
  // One-shot `hash` (no Hash object): this runs for the key of every request.
  return new Uint8Array(hash("sha256", secret, "buffer"));
}

/** The same hash as hex (a cache key made from it needs no bytes); `hashFromHex` gives the bytes when needed. */
export function hashSecretHex(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function hashFromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

/** Compares an already computed hash with a stored one in constant time (one hash, many stored sets). */
export function hashesEqual(presented: Uint8Array, stored: Uint8Array | null): boolean {
  if (!stored || stored.length !== presented.length) return false;
  return timingSafeEqual(presented, stored);
}

/** Lowercase Crockford base32, the protocol's alphabet for codes and key secrets; 32 symbols, so `byte & 31` is uniform. */
export const CROCKFORD_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** The protocol's secure random string: 45 characters of lowercase Crockford base32 (225 bits). */
export function secureRandomString(length = 45): string {
  let out = "";
  for (const byte of randomBytes(length)) out += CROCKFORD_ALPHABET[byte & 31];
  return out;
}
