/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { Provider as OidcProvider } from "oidc-provider";
import { OAUTH_PROVIDER_IDS } from "@latchkey/protocol/schemas";
import { createMemoryStore } from "./memory-store.js";
import { errorPage, PAGE_HEADERS } from "./pages.js";

/**
 * Latchkey's development OpenID provider (issue 15, "Shared keys and the development provider"): what the
 * `shared` OAuth providers sign in with when the server has no credentials of its own for them. Served by
 * Latchkey under /dev/oauth in dev mode (routes.ts), and as its own process for the test suites
 * (standalone.ts), on `oidc-provider`.
 *
 * The contract Latchkey's client side (oauth/providers/) relies on:
 * - one client per provider type, client id = the type (`github`, …), secret = the configured one, sent in
 *   a Basic header or in the body;
 * - authorization code with PKCE S256 (required), `offline_access` (with `prompt=consent`) → refresh tokens;
 * - any redirect URI whose path ends with `/auth/oauth/callback/<anything>`, so one provider serves every
 *   Latchkey base URL;
 * - `sub` = the email address chosen on the sign-in page; `email` (verified) and `name` in the ID token and
 *   userinfo even for scope `openid` alone.
 */

export type DevOidcProvider = OidcProvider;

export interface DevOidcProviderOptions {
  /** The issuer URL; its path (if any) is where the provider is mounted (`…/dev/oauth`). */
  issuer: string;
  clientSecret: string;
  /** Failures of the provider itself (not the caller's mistakes): for the host's log. */
  onServerError?: (error: Error) => void;
}


const CALLBACK_PATH = /\/auth\/oauth\/callback\/[^/]+$/;

/** `sub` and `email` are the address itself; the name is its local part, in words ("ada.lovelace" → "Ada Lovelace"). */
export function devAccountClaims(email: string): Record<string, unknown> {
  const words = email.slice(0, email.lastIndexOf("@")).split(/[._+-]+/).filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(" ");
  return { sub: email, email, email_verified: true, name: name || email };
}

/** The mount path of a provider: its issuer's path without a trailing slash ("" at the root). */
export function mountPathOf(issuer: string): string {
  return new URL(issuer).pathname.replace(/\/+$/, "");
}

export async function createDevOidcProvider({ issuer, clientSecret, onServerError }: DevOidcProviderOptions): Promise<DevOidcProvider> {
  // Loaded on first use: the package (and Koa under it) is for development only, so a server that never serves
  // /dev/oauth never loads it.
  const { default: Provider } = await import("oidc-provider");
  const mountPath = mountPathOf(issuer);
  // Signing keys live as long as the process: tokens from an earlier run are not meant to verify.
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: randomBytes(8).toString("base64url") };

  const provider = new Provider(issuer, {
    adapter: createMemoryStore(),
    jwks: { keys: [signingKey] },
    clients: OAUTH_PROVIDER_IDS.map((type) => ({
      client_id: type,
      client_secret: clientSecret,
      // Never matched as such: any Latchkey callback is allowed (see redirectUriAllowed below).
      redirect_uris: [`http://localhost/api/v1/auth/oauth/callback/${type}`],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // Client secret in the body is accepted as well (oidc-provider takes both for either registration).
      token_endpoint_auth_method: "client_secret_basic",
    })),
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: ["openid", "offline_access", "email", "profile"],
    // The email is what the client signs the user in with, so it comes with `openid` alone too.
    claims: { openid: ["sub", "email", "email_verified", "name"], email: ["email", "email_verified"], profile: ["name"] },
    // Scope claims in the ID token as well as from userinfo, so a client can read them either way.
    conformIdTokenClaims: false,
    // Codes and tokens outlive the sign-in session, which is never used again (see cookies.long).
    expiresWithSession: () => false,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => devAccountClaims(sub) }),
    features: {
      // Our own sign-in page (interaction.ts), not oidc-provider's debugging one.
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${mountPath}/interaction/${interaction.uid}` },
    cookies: {
      // The provider may share a host with the app under development (cookies ignore ports): names of its own.
      names: { session: "latchkey_dev_oidc_session", interaction: "latchkey_dev_oidc_interaction", resume: "latchkey_dev_oidc_resume" },
      keys: [randomBytes(32).toString("base64url")],
      // The sign-in session's cookie is scoped to a path no request uses, so the browser never sends it
      // back: every sign-in starts afresh and asks for the email, and choosing another address never meets
      // the previous one's session (which oidc-provider would first end through a scripted logout form).
      long: { httpOnly: true, sameSite: "lax", path: `${mountPath}/sessions-are-not-resumed` },
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 600,
      IdToken: 3600,
      RefreshToken: 14 * 86_400,
      Interaction: 3600,
      Session: 3600,
      Grant: 14 * 86_400,
    },
    clientBasedCORS: () => false,
    renderError: (ctx, out) => {
      ctx.type = "html";
      for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
      ctx.body = errorPage(out.error, out.error_description);
    },
  });

  // oidc-provider's documented way to accept redirect URIs by rule rather than by list (its recipe
  // "Allowing redirect_uri wildcards"): the client class is this provider's own, so the override stays here.
  provider.Client.prototype.redirectUriAllowed = function isLatchkeyCallback(redirectUri: string): boolean {
    const url = URL.parse(redirectUri);
    return url !== null && (url.protocol === "http:" || url.protocol === "https:") && url.hash === "" && CALLBACK_PATH.test(url.pathname);
  };

  if (onServerError) provider.on("server_error", (_ctx, error) => onServerError(error));
  return provider;
}
