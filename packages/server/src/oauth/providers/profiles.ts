import type { ProviderProfile } from "../inner-client.js";

/**
 * Each provider's own profile JSON → Latchkey's ProviderProfile. Pure functions over the documented response
 * shapes, so each mapping is tested on its own. `emailVerified` is true only where the provider says so.
 */

type Json = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const id = (value: unknown): string => {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number") return String(value);
  throw new Error("The provider's profile has no account id");
};
/** Some providers send booleans as strings ("true"), Apple among them. */
const truthy = (value: unknown): boolean => value === true || value === "true";

/** OpenID Connect claims (Google, LinkedIn, Apple's ID token). */
export function oidcProfile(claims: Json): ProviderProfile {
  const given = [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(" ");
  return {
    accountId: id(claims.sub),
    email: str(claims.email),
    emailVerified: str(claims.email) !== null && truthy(claims.email_verified),
    displayName: str(claims.name) ?? (given || null),
    profileImageUrl: str(claims.picture),
  };
}

/**
 * Apple: the ID token's claims; the name is never in it, only in the `user` form field Apple posts with the
 * first authorization (https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server#Handle-the-response).
 */
export function appleProfile(claims: Json, userField: string | null): ProviderProfile {
  const profile = oidcProfile(claims);
  if (profile.displayName || !userField) return profile;
  let user: unknown;
  try {
    user = JSON.parse(userField);
  } catch {
    return profile;
  }
  const name = (user as { name?: { firstName?: unknown; lastName?: unknown } } | null)?.name;
  const displayName = [str(name?.firstName), str(name?.lastName)].filter(Boolean).join(" ");
  return { ...profile, displayName: displayName || null };
}

/** GitHub: `GET /user`, and `GET /user/emails` for the primary address and whether it is verified. */
export function githubProfile(user: Json, emails: Array<{ email?: unknown; primary?: unknown; verified?: unknown }>): ProviderProfile {
  const primary = emails.find((e) => e.primary === true) ?? null;
  return {
    accountId: id(user.id),
    email: str(primary?.email) ?? str(user.email),
    emailVerified: primary ? primary.verified === true : false,
    displayName: str(user.name) ?? str(user.login),
    profileImageUrl: str(user.avatar_url),
  };
}

/** Microsoft Graph `GET /me`: no verification claim, so never counted as verified. */
export function microsoftProfile(me: Json): ProviderProfile {
  return { accountId: id(me.id), email: str(me.mail) ?? str(me.userPrincipalName), emailVerified: false, displayName: str(me.displayName), profileImageUrl: null };
}

/** Facebook Graph `GET /me?fields=id,name,email,picture`: the API says nothing about verification. */
export function facebookProfile(me: Json): ProviderProfile {
  const picture = (me.picture as { data?: { url?: unknown } } | undefined)?.data?.url;
  return { accountId: id(me.id), email: str(me.email), emailVerified: false, displayName: str(me.name), profileImageUrl: str(picture) };
}

/** Spotify `GET /v1/me`: Spotify documents the email as unverified. */
export function spotifyProfile(me: Json): ProviderProfile {
  const images = Array.isArray(me.images) ? (me.images as Array<{ url?: unknown }>) : [];
  return { accountId: id(me.id), email: str(me.email), emailVerified: false, displayName: str(me.display_name), profileImageUrl: str(images[0]?.url) };
}

/** Discord `GET /users/@me`: `verified` is whether the email is verified. */
export function discordProfile(me: Json): ProviderProfile {
  const avatar = str(me.avatar);
  return {
    accountId: id(me.id),
    email: str(me.email),
    emailVerified: str(me.email) !== null && me.verified === true,
    displayName: str(me.global_name) ?? str(me.username),
    profileImageUrl: avatar ? `https://cdn.discordapp.com/avatars/${id(me.id)}/${avatar}.png` : null,
  };
}

/** GitLab `GET /api/v4/user`: the email is confirmed once `confirmed_at` is set. */
export function gitlabProfile(user: Json): ProviderProfile {
  return {
    accountId: id(user.id),
    email: str(user.email),
    emailVerified: str(user.email) !== null && str(user.confirmed_at) !== null,
    displayName: str(user.name) ?? str(user.username),
    profileImageUrl: str(user.avatar_url),
  };
}

/** Bitbucket `GET /2.0/user` and `GET /2.0/user/emails` (`is_primary`, `is_confirmed`). */
export function bitbucketProfile(user: Json, emails: Array<{ email?: unknown; is_primary?: unknown; is_confirmed?: unknown }>): ProviderProfile {
  const primary = emails.find((e) => e.is_primary === true) ?? null;
  const avatar = (user.links as { avatar?: { href?: unknown } } | undefined)?.avatar?.href;
  return {
    accountId: id(user.account_id ?? user.uuid),
    email: str(primary?.email),
    emailVerified: primary ? primary.is_confirmed === true : false,
    displayName: str(user.display_name) ?? str(user.username),
    profileImageUrl: str(avatar),
  };
}

/** X `GET /2/users/me`: no email without the separately approved scope, so none is read. */
export function xProfile(body: Json): ProviderProfile {
  const user = (body.data ?? {}) as Json;
  return { accountId: id(user.id), email: null, emailVerified: false, displayName: str(user.name) ?? str(user.username), profileImageUrl: str(user.profile_image_url) };
}

/** Twitch Helix `GET /users`: the email it returns (with `user:read:email`) is the verified one. */
export function twitchProfile(body: Json): ProviderProfile {
  const user = (Array.isArray(body.data) ? body.data[0] : undefined) as Json | undefined;
  if (!user) throw new Error("Twitch answered without a user");
  return { accountId: id(user.id), email: str(user.email), emailVerified: str(user.email) !== null, displayName: str(user.display_name) ?? str(user.login), profileImageUrl: str(user.profile_image_url) };
}
