/**
 * TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps) in the browser, to check the code a person types
 * from their authenticator app before the secret is saved — so two-factor sign-in is never turned on with a
 * secret their app did not take.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function newTotpSecret(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(20));
}

export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** The `otpauth://` URI authenticator apps read from the QR code. */
export function otpauthUri(secret: Uint8Array, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${base32(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}

/** The secret's code for a 30-second step (default: now). */
export async function totpCode(secret: Uint8Array<ArrayBuffer>, now = Date.now()): Promise<string> {
  return codeAt(secret, Math.floor(now / 30_000));
}

async function codeAt(secret: Uint8Array<ArrayBuffer>, step: number): Promise<string> {
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter));
  const offset = mac[19]! & 15;
  const number = ((mac[offset]! & 127) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(number % 1_000_000).padStart(6, "0");
}

/** Whether `code` is the secret's code for now or the step before or after (clock drift). */
export async function totpMatches(secret: Uint8Array<ArrayBuffer>, code: string, now = Date.now()): Promise<boolean> {
  const step = Math.floor(now / 30_000);
  for (const candidate of [step, step - 1, step + 1]) if ((await codeAt(secret, candidate)) === code) return true;
  return false;
}
