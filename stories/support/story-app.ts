import { createClientApp, type ClientApp, type KnownError } from "@latchkey/core";
import type { ClientProjectConfigRead, ClientProjectRead, SignInResponse } from "@latchkey/protocol/schemas";
import { action } from "storybook/actions";

/**
 * Apps for stories: a real @latchkey/core client whose `fetch` answers from canned, protocol-shaped JSON
 * instead of a server, so every element state can be shown (and checked for accessibility) without one.
 * Only stories do this; tests of our own parts always talk to a real server.
 */

/** One canned answer: a JSON body, a known error, a network failure, or no answer at all (loading). */
export type StoryAnswer =
  | { json: unknown; status?: number }
  | { knownError: KnownError }
  | { networkFailure: true }
  | { pending: true };

/** `"METHOD /path"` under /api/v1, e.g. `"POST /auth/password/sign-in"`. */
export type StoryRoute = `${"GET" | "POST" | "PATCH" | "DELETE"} /${string}`;

export interface StoryServer {
  /** Changes to the project's public config (wire names); default: password sign-in and sign-up only. */
  config?: Partial<ClientProjectConfigRead>;
  /** Start signed in as this user. */
  signedIn?: boolean;
  /** The user the server knows (display name, email, …). */
  user?: Partial<StoryUser>;
  /** Answers replacing the defaults, by route. */
  answers?: Partial<Record<StoryRoute, StoryAnswer>>;
}

export interface StoryUser {
  id: string;
  display_name: string | null;
  primary_email: string;
  profile_image_url: string | null;
}

export const STORY_PROJECT_ID = "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const BASE_URL = "https://auth.example.com";

/** The project's config as GET /projects/current sends it, with the story's changes. */
export function projectConfig(changes: Partial<ClientProjectConfigRead> = {}): ClientProjectConfigRead {
  return {
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: false,
    passkey_enabled: false,
    client_team_creation_enabled: false,
    client_user_deletion_enabled: false,
    allow_user_api_keys: false,
    allow_team_api_keys: false,
    enabled_oauth_providers: [],
    ...changes,
  };
}

/** Creates the app of one story render: fresh state, memory tokens, navigation logged as an action. */
export function createStoryApp(server: StoryServer = {}): ClientApp {
  const user: StoryUser = { id: "0b8f6c1e-5d2a-4c3b-9e7f-1a2b3c4d5e6f", display_name: "Ada Lovelace", primary_email: "ada@example.com", profile_image_url: null, ...server.user };
  const app = createClientApp({
    projectId: STORY_PROJECT_ID,
    publishableClientKey: "pck_story",
    baseUrl: BASE_URL,
    tokenStore: "memory",
    fetch: storyFetch(server, user),
    // A story never leaves its page: redirects after sign-in/out show up in the Actions panel instead.
    navigate: (url) => action("navigate")(url),
  });
  if (server.signedIn) app.session.signIn(tokensFor(user.id));
  return app;
}

function storyFetch(server: StoryServer, user: StoryUser): typeof fetch {
  const project: ClientProjectRead = { id: STORY_PROJECT_ID, display_name: "Story project", config: projectConfig(server.config) };
  const signedIn = (): SignInResponse => ({ ...tokensOnWire(user.id), user_id: user.id, is_new_user: false });
  const defaults: Record<StoryRoute, () => StoryAnswer> = {
    "GET /projects/current": () => ({ json: project }),
    "GET /users/me": () => ({ json: wireUser(user) }),
    "GET /teams": () => ({ json: { items: [], is_paginated: false } }),
    "POST /auth/password/sign-in": () => ({ json: signedIn() }),
    "POST /auth/password/sign-up": () => ({ json: { ...signedIn(), is_new_user: true } }),
    "POST /auth/otp/send-sign-in-code": () => ({ json: { nonce: "story-nonce" } }),
    "POST /auth/otp/sign-in": () => ({ json: signedIn() }),
    "POST /auth/password/send-reset-code": () => ({ json: { success: "maybe, only if user with e-mail exists" } }),
    "POST /auth/password/reset/check-code": () => ({ json: { is_code_valid: true } }),
    "POST /auth/password/reset": () => ({ json: { success: true } }),
    "POST /contact-channels/verify": () => ({ json: {} }),
    "DELETE /auth/sessions/current": () => ({ json: {} }),
    "POST /auth/oauth/token": () => ({ json: { access_token: tokensOnWire(user.id).access_token, token_type: "Bearer" } }),
  };

  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? "GET").toUpperCase();
    const route = `${method} ${url.pathname.replace(/^\/api\/v1/, "")}` as StoryRoute;
    action("request")(route);
    const answer = server.answers?.[route] ?? defaults[route]?.();
    if (!answer) return jsonResponse(404, { error: `No canned answer for ${route} in this story.` });
    if ("pending" in answer) return new Promise<Response>(() => {});
    // What fetch does when the network fails: reject with a TypeError.
    if ("networkFailure" in answer) throw new TypeError("Failed to fetch");
    if ("knownError" in answer) {
      const { knownError } = answer;
      return jsonResponse(knownError.statusCode, knownError.toJSON(), { "x-stack-known-error": knownError.code });
    }
    return jsonResponse(answer.status ?? 200, answer.json);
  };
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function wireUser(user: StoryUser) {
  return {
    id: user.id,
    primary_email: user.primary_email,
    primary_email_verified: true,
    display_name: user.display_name,
    client_metadata: null,
    client_read_only_metadata: null,
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: Date.UTC(2025, 0, 15),
    has_password: true,
    auth_with_email: true,
    oauth_providers: [],
    selected_team_id: null,
    requires_totp_mfa: false,
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    is_anonymous: false,
  };
}

/**
 * An unsigned JWT with the claims the client reads (subject, expiry): the client only decodes access tokens,
 * the server verifies them, and there is no server here.
 */
function accessToken(userId: string): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: "none", typ: "JWT" })}.${encode({ sub: userId, iat: now, exp: now + 3600, is_anonymous: false, refresh_token_id: "story-refresh" })}.story`;
}

function tokensFor(userId: string) {
  return { accessToken: accessToken(userId), refreshToken: "story-refresh-token" };
}

function tokensOnWire(userId: string) {
  const tokens = tokensFor(userId);
  return { access_token: tokens.accessToken, refresh_token: tokens.refreshToken };
}
