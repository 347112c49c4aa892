import { createClientApp, type ClientApp, type KnownError } from "@latchkey/core";
import type { ClientProjectConfigRead, ClientProjectRead, SignInResponse } from "@latchkey/protocol/schemas";
import { action } from "storybook/actions";
import { apiKeys, contactChannels, notificationPreferences, oauthLinks, sessions, STORY_USER_ID, TEAMS, teamMemberRoles } from "./story-data.js";

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

/**
 * `"METHOD /path"` under /api/v1, e.g. `"POST /auth/password/sign-in"`; a `*` segment stands for any one
 * segment (an id), e.g. `"DELETE /auth/sessions/*"`. The query string is not part of the route.
 */
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

/** The user as `GET /users/me` sends it (the fields stories vary). */
export interface StoryUser {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  profile_image_url: string | null;
  /** False for accounts made with a magic link or OAuth: the password section offers to set one. */
  has_password: boolean;
  requires_totp_mfa: boolean;
  passkey_auth_enabled: boolean;
  selected_team_id: string | null;
}

export const STORY_PROJECT_ID = "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
/**
 * Where the story's page is (Storybook's iframe.html): the requests of the app go to storyFetch whatever the
 * host, but the sign-in buttons' provider marks are images, which Storybook serves next to the page
 * (.storybook/oauth-icons.ts) as a Latchkey server does at its base URL.
 */
const BASE_URL = new URL(".", location.href).href.replace(/\/$/, "");

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
    // Read by 2.8.108 clients only; Latchkey's own client ignores them.
    allow_localhost: true,
    domains: [],
    ...changes,
  };
}

/** Creates the app of one story render: fresh state, memory tokens, navigation logged as an action. */
export function createStoryApp(server: StoryServer = {}): ClientApp {
  const user: StoryUser = {
    id: STORY_USER_ID,
    display_name: "Ada Lovelace",
    primary_email: "ada@example.com",
    profile_image_url: null,
    has_password: true,
    requires_totp_mfa: false,
    passkey_auth_enabled: false,
    selected_team_id: null,
    ...server.user,
  };
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

/** `user` is this render's own copy: `PATCH /users/me` changes it. */
function storyFetch(server: StoryServer, user: StoryUser): typeof fetch {
  const project: ClientProjectRead = { id: STORY_PROJECT_ID, display_name: "Story project", config: projectConfig(server.config) };
  const signedIn = (): SignInResponse => ({ ...tokensOnWire(user.id), user_id: user.id, is_new_user: false });
  const defaults: Record<StoryRoute, (body: Record<string, unknown>) => StoryAnswer> = {
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
    "POST /auth/mfa/sign-in": () => ({ json: signedIn() }),
    // Account settings: a filled account (two addresses, three sessions, both mail categories, four keys).
    // Applies what the protocol lets a client change, so the element (and a reload of $user) shows the change.
    "PATCH /users/me": (body) => {
      if ("display_name" in body) user.display_name = body.display_name as string | null;
      if ("profile_image_url" in body) user.profile_image_url = body.profile_image_url as string | null;
      if ("selected_team_id" in body) user.selected_team_id = body.selected_team_id as string | null;
      if ("totp_secret_base64" in body) user.requires_totp_mfa = body.totp_secret_base64 !== null;
      if ("passkey_auth_enabled" in body) user.passkey_auth_enabled = body.passkey_auth_enabled as boolean;
      return { json: wireUser(user) };
    },
    "POST /auth/password/update": () => ({ json: { success: true } }),
    "POST /auth/password/set": () => ({ json: { success: true } }),
    "GET /contact-channels": () => ({ json: { items: contactChannels(user.id), is_paginated: false } }),
    "POST /contact-channels": (body) => ({ json: { ...contactChannels(user.id)[1]!, value: String(body.value), used_for_auth: body.used_for_auth === true }, status: 201 }),
    "POST /contact-channels/me/*/send-verification-code": () => ({ json: { success: true } }),
    "PATCH /contact-channels/me/*": () => ({ json: contactChannels(user.id)[1] }),
    "DELETE /contact-channels/me/*": () => ({ json: { success: true } }),
    "GET /auth/sessions": () => ({ json: { items: sessions(user.id), is_paginated: false } }),
    "DELETE /auth/sessions/*": () => ({ json: { success: true } }),
    "GET /emails/notification-preference/me": () => ({ json: { items: notificationPreferences(), is_paginated: false } }),
    "PATCH /emails/notification-preference/me/*": (body) => ({ json: { ...notificationPreferences()[1]!, enabled: body.enabled === true } }),
    "GET /user-api-keys": () => ({ json: { items: apiKeys(user.id), is_paginated: false } }),
    "PATCH /user-api-keys/*": () => ({ json: { ...apiKeys(user.id)[0]!, manually_revoked_at_millis: Date.now() } }),
    "DELETE /users/me": () => ({ json: { success: true } }),
    "POST /auth/cli/complete": () => ({ json: { success: true } }),
    // Team actions succeed, so a story can be clicked through; the lists come from each story's answers.
    "POST /teams": (body) => ({ json: { ...TEAMS[0]!, id: "4d5e6f70-0000-4000-8000-000000000009", display_name: String(body.display_name) }, status: 201 }),
    "PATCH /teams/*": (body) => ({ json: { ...TEAMS[0]!, ...body } }),
    "DELETE /teams/*": () => ({ json: { success: true } }),
    "DELETE /team-memberships/*/*": () => ({ json: { success: true } }),
    "GET /team-member-roles": () => ({ json: { items: teamMemberRoles(), is_paginated: false } }),
    "POST /team-invitations/send-code": () => ({ json: { success: true, id: "5e6f7081-0000-4000-8000-000000000009" } }),
    "DELETE /team-invitations/*": () => ({ json: { success: true } }),
    "POST /team-invitations/accept": () => ({ json: {} }),
    // Connected accounts: GitHub linked (signs in), GitLab linked for API access only.
    "GET /oauth-providers": () => ({ json: { items: oauthLinks(user.id), is_paginated: false } }),
    "PATCH /oauth-providers/me/*": (body) => ({ json: { ...oauthLinks(user.id)[0]!, ...body } }),
    "DELETE /oauth-providers/me/*": () => ({ json: { success: true } }),
  };

  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? "GET").toUpperCase();
    const route = `${method} ${url.pathname.replace(/^\/api\/v1/, "")}` as StoryRoute;
    action("request")(route);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const answer = lookUp(server.answers ?? {}, route) ?? lookUp(defaults, route)?.(body);
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

/** The entry for a route: by exact name, else the first pattern whose `*` segments match. */
function lookUp<T>(table: Partial<Record<StoryRoute, T>>, route: StoryRoute): T | undefined {
  if (table[route] !== undefined) return table[route];
  const segments = route.split("/");
  for (const [pattern, value] of Object.entries(table) as Array<[string, T]>) {
    const parts = pattern.split("/");
    if (parts.length === segments.length && parts.every((part, i) => part === "*" || part === segments[i])) return value;
  }
  return undefined;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function wireUser(user: StoryUser) {
  return {
    id: user.id,
    primary_email: user.primary_email,
    primary_email_verified: user.primary_email !== null,
    display_name: user.display_name,
    client_metadata: null,
    client_read_only_metadata: null,
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: Date.UTC(2025, 0, 15),
    has_password: user.has_password,
    auth_with_email: user.primary_email !== null,
    oauth_providers: [],
    selected_team_id: user.selected_team_id,
    requires_totp_mfa: user.requires_totp_mfa,
    otp_auth_enabled: false,
    passkey_auth_enabled: user.passkey_auth_enabled,
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

/** A story's canned server, as Storybook parameters: `{ ...serves({ signedIn: true }) }`. */
export function serves(latchkey: StoryServer): { parameters: { latchkey: StoryServer } } {
  return { parameters: { latchkey } };
}

/** A signed-in account with the given changes: most account and team stories start from it. */
export function signedIn(changes: Omit<StoryServer, "signedIn"> = {}): { parameters: { latchkey: StoryServer } } {
  return serves({ ...changes, signedIn: true });
}

/** The same story in the dark theme whatever the toolbar says (explicit dark variants of a few states). */
export function dark<T extends { parameters?: object }>(story: T): T & { parameters: { theme: "dark" } } {
  return { ...story, parameters: { ...story.parameters, theme: "dark" } };
}
