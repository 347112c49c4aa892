import { UnsecuredJWT } from "jose";

/** An access-token-shaped JWT (unsigned: the library only decodes tokens) expiring at `expiresAt` ms. */
export function accessTokenExpiringAt(expiresAt: number, claims: Record<string, unknown> = {}): string {
  return new UnsecuredJWT({ refresh_token_id: "rt", is_anonymous: false, ...claims })
    .setSubject("3f1b0c4e-8d2a-4b6f-9e1d-2c3b4a5d6e7f")
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .encode();
}
