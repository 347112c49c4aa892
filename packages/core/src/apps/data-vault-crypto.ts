/**
 * The app-side cryptography of the data vault (issue 33), in the reference SDK's format so that values written
 * by either SDK read back through the other. Nothing here leaves the app unhashed or unencrypted: the server gets
 * `hashKey(secret, key)` and `encryptValue(secret, key, value)`.
 *
 * - A key's derived key: PBKDF2-SHA256, 100,000 iterations, of the key, salted with the purpose and the secret.
 * - The hashed key: one more PBKDF2 round of that derived key (so the server cannot run the 100,000 rounds on
 *   guesses from a hash it stores), base64.
 * - The value: AES-256-GCM under an HKDF-SHA256 of the derived key with a fresh 16-byte salt, 12-byte nonce;
 *   laid out as version 1.0 (2 bytes) | salt | nonce | ciphertext and tag, base64.
 */

const HASH_PURPOSE = "stack-data-vault-client-side-encryption-key-hash";
const DERIVED_KEY_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-key-hash";
const VALUE_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-value-encryption";
const ITERATIONS = 100_000;

const utf8 = (text: string) => new TextEncoder().encode(text);

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its bytes as arguments, and a 100 KB value would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The reference's iterated hash: PBKDF2-SHA256 to 256 bits, the purpose and `extra` (the secret) in the salt. */
async function iteratedHash(purpose: string, extra: string, value: Uint8Array, iterations: number): Promise<Uint8Array> {
  const input = await crypto.subtle.importKey("raw", value as BufferSource, "PBKDF2", false, ["deriveBits"]);
  // The reference's salt: its helper's name, the purpose, base64 of its (empty) salt and of `extra`.
  const salt = utf8(JSON.stringify(["stack-crypto-helper-iterated-hash", purpose, "", toBase64(utf8(extra))]));
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", salt, iterations, hash: "SHA-256" }, input, 256));
}

/** The 100,000-round derivation both the hashed key and the value's encryption start from: compute it once. */
export function derivedVaultKey(secret: string, key: string): Promise<Uint8Array> {
  return iteratedHash(DERIVED_KEY_PURPOSE, secret, utf8(key), ITERATIONS);
}

/** A key's derivation, given either as the secret and key or as `derivedVaultKey`'s result. */
type Derived = Uint8Array | { secret: string; key: string };
const derivedOf = (from: Derived) => (from instanceof Uint8Array ? Promise.resolve(from) : derivedVaultKey(from.secret, from.key));

async function valueKey(derived: Uint8Array, salt: Uint8Array): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", derived as BufferSource, "HKDF", false, ["deriveKey"]);
  const info = utf8(JSON.stringify(["stack-crypto-helper-derived-symmetric-key", VALUE_PURPOSE, "binary-key", toBase64(salt)]));
  return crypto.subtle.deriveKey({ name: "HKDF", salt: salt as BufferSource, hash: "SHA-256", info }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

export async function hashVaultKey(secret: string, key: string, derived?: Uint8Array): Promise<string> {
  return toBase64(await iteratedHash(HASH_PURPOSE, secret, derived ?? (await derivedVaultKey(secret, key)), 1));
}

export async function encryptVaultValue(from: Derived, value: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const aesKey = await valueKey(await derivedOf(from), salt);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, aesKey, utf8(value)));
  const out = new Uint8Array(2 + 16 + 12 + sealed.length);
  out.set([1, 0]);
  out.set(salt, 2);
  out.set(nonce, 18);
  out.set(sealed, 30);
  return toBase64(out);
}

/** Thrown when a stored value does not decrypt under the secret (the hashed key matched, the value did not). */
export class DataVaultDecryptionError extends Error {
  override name = "DataVaultDecryptionError";
}

export async function decryptVaultValue(from: Derived, encrypted: string): Promise<string> {
  const bytes = fromBase64(encrypted);
  if (bytes.length < 30 + 16 || bytes[0] !== 1 || bytes[1] !== 0) throw new DataVaultDecryptionError("The stored value is not in the data vault's format (version 1.0).");
  const aesKey = await valueKey(await derivedOf(from), bytes.subarray(2, 18));
  try {
    return new TextDecoder().decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(18, 30) }, aesKey, bytes.subarray(30)));
  } catch {
    throw new DataVaultDecryptionError("Data vault decryption failed: is this the secret the value was stored with?");
  }
}
