import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets Latchkey must be able to read back (a provider's access and refresh tokens), encrypted at rest with
 * AES-256-GCM under a key derived from the server secret: a copy of the database alone reveals none of them.
 * The row's id is bound in as associated data, so a ciphertext cannot be moved to another row.
 */

export interface SealedText {
  sealed: Uint8Array;
  /** Names the server secret that sealed it, so a rotated secret can still open older rows. */
  keyId: string;
}

function sealingKey(secret: string): { key: Buffer; id: string } {
  const key = Buffer.from(hkdfSync("sha256", secret, "latchkey-sealed-text", "", 32));
  return { key, id: createHash("sha256").update(key).update("id").digest("base64url").slice(0, 16) };
}

export function sealText(secret: string, boundTo: string, text: string): SealedText {
  const { key, id } = sealingKey(secret);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return { sealed: new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()])), keyId: id };
}

/** The text, opened with whichever of the secrets (current first, then previous ones) sealed it; undefined if none did. */
export function openSealedText(secrets: readonly string[], boundTo: string, sealed: SealedText): string | undefined {
  for (const secret of secrets) {
    const { key, id } = sealingKey(secret);
    if (id !== sealed.keyId) continue;
    const data = Buffer.from(sealed.sealed);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
  return undefined;
}
