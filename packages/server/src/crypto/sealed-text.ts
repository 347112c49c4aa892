import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets Latchkey must be able to read back (signing-key seeds, a provider's access and refresh tokens),
 * encrypted at rest with AES-256-GCM under a key derived from the server secret: a copy of the database alone
 * reveals none of them. Each use has its own key (the HKDF `purpose`), and the row's id is bound in as
 * associated data, so a ciphertext cannot be moved to another row.
 */

export interface SealedBytes {
  /** IV, ciphertext and tag. */
  sealed: Uint8Array;
  /** Names the server secret that sealed it, so a rotated secret can still open older rows. */
  keyId: string;
}

function sealingKey(secret: string, purpose: string): { key: Buffer; id: string } {
  const key = Buffer.from(hkdfSync("sha256", secret, purpose, "", 32));
  return { key, id: createHash("sha256").update(key).update("id").digest("base64url").slice(0, 16) };
}

/** The id `sealBytes` records for `secret` and `purpose`, to tell which rows a newer secret has not sealed yet. */
export function sealingKeyId(secret: string, purpose: string): string {
  return sealingKey(secret, purpose).id;
}

export function sealBytes(secret: string, purpose: string, boundTo: string, bytes: Uint8Array): SealedBytes {
  const { key, id } = sealingKey(secret, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return { sealed: new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()])), keyId: id };
}

/** The bytes, opened with whichever of the secrets (current first, then previous ones) sealed them, and that secret. */
export function openSealedBytes(secrets: readonly string[], purpose: string, boundTo: string, sealed: SealedBytes): { bytes: Uint8Array; secret: string } | undefined {
  for (const secret of secrets) {
    const { key, id } = sealingKey(secret, purpose);
    if (id !== sealed.keyId) continue;
    const data = Buffer.from(sealed.sealed);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return { bytes: new Uint8Array(Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()])), secret };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const TEXT_PURPOSE = "latchkey-sealed-text";

export function sealText(secret: string, boundTo: string, text: string): SealedBytes {
  return sealBytes(secret, TEXT_PURPOSE, boundTo, new TextEncoder().encode(text));
}

export function openSealedText(secrets: readonly string[], boundTo: string, sealed: SealedBytes): string | undefined {
  const opened = openSealedBytes(secrets, TEXT_PURPOSE, boundTo, sealed);
  return opened && new TextDecoder().decode(opened.bytes);
}
