import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from "node:crypto";
import type { KeyWrapper } from "./vault-key-wrapper.js";

/**
 * Envelope encryption of a data vault value at rest (issue 33). Each value gets a fresh 32-byte data key; the
 * value is sealed with AES-256-GCM under a key HKDF-SHA256 derives from that data key and a fresh 16-byte salt
 * (12-byte nonce, SPEC.md §9), and the data key is wrapped by the KeyWrapper's KEK. Both layers bind `context`
 * (project, store, hashed key) as associated data, so a row copied to another project, store or key opens as
 * nothing. Layout of the sealed value: version 1.0 (2 bytes) | salt (16) | nonce (12) | ciphertext | tag (16).
 */

export interface SealedVaultValue {
  kekId: string;
  wrappedDataKey: Uint8Array;
  sealedValue: Uint8Array;
}

const VERSION = [1, 0] as const;
const HEADER = 2 + 16 + 12;

/** What a row is bound to: a change to any part makes it unopenable. */
export function vaultContext(projectId: string, storeId: string, hashedKey: string): string {
  return JSON.stringify(["latchkey-data-vault-entry", projectId, storeId, hashedKey]);
}

function valueKey(dataKey: Uint8Array, salt: Uint8Array, context: string): Buffer {
  // HKDF's info is capped at 1024 bytes and a hashed key is the app's text of any length: bind its digest.
  return Buffer.from(hkdfSync("sha256", dataKey, salt, JSON.stringify(["latchkey-data-vault-value", hash("sha256", context, "base64")]), 32));
}

export async function sealVaultValue(wrapper: KeyWrapper, context: string, value: string): Promise<SealedVaultValue> {
  const dataKey = randomBytes(32);
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", valueKey(dataKey, salt, context), nonce);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  const sealedValue = new Uint8Array(Buffer.concat([Buffer.from(VERSION), salt, nonce, body, cipher.getAuthTag()]));
  const { wrapped, keyId } = await wrapper.wrap(dataKey, context);
  dataKey.fill(0);
  return { kekId: keyId, wrappedDataKey: wrapped, sealedValue };
}

/** The value, or undefined when the row does not open (another context, an unknown KEK, tampering). */
export async function openVaultValue(wrapper: KeyWrapper, context: string, sealed: SealedVaultValue): Promise<string | undefined> {
  const data = Buffer.from(sealed.sealedValue);
  if (data.length < HEADER + 16 || data[0] !== VERSION[0] || data[1] !== VERSION[1]) return undefined;
  const dataKey = await wrapper.unwrap(sealed.wrappedDataKey, sealed.kekId, context);
  if (!dataKey) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", valueKey(dataKey, data.subarray(2, 18), context), data.subarray(18, HEADER));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(HEADER, data.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** The same data key wrapped again under the current KEK (rotation); the sealed value is unchanged. */
export async function rewrapVaultValue(wrapper: KeyWrapper, context: string, sealed: SealedVaultValue): Promise<SealedVaultValue | undefined> {
  const dataKey = await wrapper.unwrap(sealed.wrappedDataKey, sealed.kekId, context);
  if (!dataKey) return undefined;
  const { wrapped, keyId } = await wrapper.wrap(dataKey, context);
  return { kekId: keyId, wrappedDataKey: wrapped, sealedValue: sealed.sealedValue };
}
