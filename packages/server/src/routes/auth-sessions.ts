import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  sessionCreateBody,
  sessionCreateResponse,
  sessionDeleteQuery,
  sessionIdParams,
  sessionListQuery,
  sessionListResponse,
  sessionRefreshResponse,
  successResponse,
  tokenResponse,
  authorizationCodeTokenResponse,
  type OAuthTokenErrorCode,
  type SessionRead,
} from "@latchkey/protocol/schemas";
import { z } from "zod";
import type { Db } from "../db/connect.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { namedUser } from "../http/named-user.js";
import { oauthClientProject } from "../http/oauth-client.js";
import type { ProjectRow } from "../services/projects.js";
import { accessTokenForUserRecord, findCachedSession, listUserSessions, revokeSession, sessionOfRefreshToken, signInUser, touchSession, type SessionRow } from "../services/sessions.js";
import { findUserRow } from "../services/user-rows.js";
import { exchangeAuthorizationCode } from "../services/oauth-code-exchange.js";
import { findCachedUserRecord } from "../services/user-read.js";
import { restrictionPolicy } from "../services/user-restrictions.js";
import { protocolHeader, protocolHeaderName } from "../http/dialect.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAGS = ["Sessions"];

/**
 * Sessions (SPEC.md §4 "Session", §7 "Auth"): creating one for a user (server), refreshing its access
 * token (`/auth/sessions/current/refresh`, and the OAuth token endpoint's refresh grant, which is how the
 * client library refreshes), signing out, and listing or ending a user's sessions.
 */
export const sessionsRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/sessions",
    summary: "Create a session for a user",
    description: "A server signs a user in, e.g. to act as them (`is_impersonation`; such sessions are listed to admins only).",
    tags: TAGS,
    access: ["server", "admin"],
    request: { body: sessionCreateBody },
    response: { description: "The session's refresh token and a first access token.", schema: sessionCreateResponse },
    errors: [KnownErrors.UserIdDoesNotExist],
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      const user = await findUserRow(db, auth.project.id, body.user_id);
      if (!user) throw new KnownErrors.UserIdDoesNotExist(body.user_id);
      const tokens = await signInUser(db, env, {
        project: auth.project,
        userId: user.id,
        expiresInMillis: body.expires_in_millis,
        isImpersonation: body.is_impersonation,
        // The caller is the app's backend, not the user's device: the session's first refresh tells that.
        device: {},
      });
      return { refresh_token: tokens.refresh_token, access_token: tokens.access_token };
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/sessions/current/refresh",
    summary: "Refresh an access token",
    description: "For the session of the `x-stack-refresh-token` header.",
    tags: TAGS,
    access: ANY_ACCESS,
    response: { description: "A new access token.", schema: sessionRefreshResponse },
    errors: [KnownErrors.RefreshTokenNotFoundOrExpired],
    handler: async (c, { auth }) => {
      const refreshToken = protocolHeader(c, "refresh-token");
      if (!refreshToken) {
        const name = protocolHeaderName(c, "refresh-token");
        throw new KnownErrors.SchemaError(`Request validation failed on POST ${c.req.path}:\n  - headers.${name} must be defined`);
      }
      const session = await findCachedSession(c.get("deps").db, c.get("deps").caches, auth.project.id, refreshToken);
      return { access_token: await refreshedAccessToken(c, auth.project, session) };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/auth/sessions/current",
    summary: "Sign out",
    description:
      "Ends the session the access token was issued for; without one, the session of the `x-stack-refresh-token` header. " +
      "A session that is already gone is REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, which the client library treats as signed out.",
    tags: TAGS,
    access: ANY_ACCESS,
    response: { description: "Signed out.", schema: successResponse },
    errors: [KnownErrors.RefreshTokenNotFoundOrExpired, KnownErrors.UserAuthenticationRequired],
    handler: async (c, { auth }) => {
      const { db } = c.get("deps");
      const refreshToken = protocolHeader(c, "refresh-token");
      if (auth.user && auth.refreshTokenId) {
        if (!(await revokeSession(db, auth.project.id, auth.user.id, auth.refreshTokenId))) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      } else if (refreshToken) {
        const session = await sessionOfRefreshToken(db, auth.project.id, refreshToken);
        if (!(await revokeSession(db, auth.project.id, session.user_id, session.id))) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
      } else {
        throw new KnownErrors.UserAuthenticationRequired();
      }
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/auth/sessions",
    summary: "List a user's sessions",
    description: "Clients list their own (`user_id=me` or their id). Impersonation sessions are listed to admin callers only.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: sessionListQuery },
    response: { description: "The user's live sessions, newest first.", schema: sessionListResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const userId = namedUser(auth, query.user_id, () => new HTTPException(403, { message: "Client can only list sessions for their own user." }));
      const rows = await listUserSessions(c.get("deps").db, auth.project.id, userId, { includeImpersonation: auth.type === "admin" });
      return { items: rows.map((row) => renderSession(row, auth.refreshTokenId)), is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "delete",
    path: "/auth/sessions/:id",
    summary: "End a session",
    description: "Clients may end only their own sessions, and never the current one (sign out for that).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: sessionIdParams, query: sessionDeleteQuery },
    response: { description: "Ended.", schema: successResponse },
    errors: [KnownErrors.CannotDeleteCurrentSession, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params, query }) => {
      // Clients may only end their own sessions; servers may name any session of the project.
      const forbidden = "Client can only manage sessions of their own user.";
      const userId = query.user_id !== undefined ? namedUser(auth, query.user_id, () => new HTTPException(403, { message: forbidden })) : auth.type === "client" ? namedUser(auth, "me", () => new HTTPException(403, { message: forbidden })) : undefined;
      const sessionId = params.id;
      if (auth.refreshTokenId !== null && sessionId.toLowerCase() === auth.refreshTokenId) throw new KnownErrors.CannotDeleteCurrentSession();
      const { db } = c.get("deps");
      const session = await findProjectSession(db, auth.project.id, sessionId);
      if (!session || (userId !== undefined && session.user_id !== userId)) throw new HTTPException(404, { message: "Session not found." });
      await revokeSession(db, auth.project.id, session.user_id, session.id);
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/oauth/token",
    summary: "OAuth token endpoint (authorization code and refresh grants)",
    description:
      "RFC 6749 §4.1.3 authorization_code grant (the end of OAuth sign-in: `code`, `code_verifier`, `redirect_uri`) and §6 refresh grant, as the client library sends them through oauth4webapi: a form body (JSON is accepted too) with " +
      "`grant_type=refresh_token`, `refresh_token`, and the client's credentials (`client_id`: the project id, optionally `#<branch>`; " +
      "`client_secret`: a publishable client key), in the body or by HTTP Basic; no x-stack headers. Request errors the known-error " +
      "catalogue has no code for answer with an RFC 6749 §5.2 body (`invalid_request`, `unsupported_grant_type`).",
    tags: TAGS,
    access: "public",
    response: {
      description: "RFC 6749 §5.1: a new session for a code (with `is_new_user` and `after_callback_redirect_url`); a new access token for a refresh token, which stays the same.",
      schema: z.union([authorizationCodeTokenResponse, tokenResponse]),
    },
    errors: [KnownErrors.InvalidOAuthClientIdOrSecret, KnownErrors.RefreshTokenNotFoundOrExpired, KnownErrors.InvalidAuthorizationCode, KnownErrors.MultiFactorAuthenticationRequired],
    handler: async (c) => {
      // Failures the catalogue knows (bad client, bad refresh token) are known errors: the client library
      // reads the x-stack-known-error header before anything else and treats REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED
      // as "signed out", whereas an RFC 6749 `invalid_grant` body would make it throw. Only the request errors
      // the catalogue has no code for use the RFC 6749 §5.2 body.
      const params = formParams(c.get("body"));
      const { db, env } = c.get("deps");
      const project = await authenticateClient(c, params);
      const grantType = params.grant_type;
      if (!grantType) return oauthError(c, "invalid_request", "Missing parameter: grant_type");
      if (grantType === "authorization_code") {
        if (!params.code) return oauthError(c, "invalid_request", "Missing parameter: code");
        const answer = await exchangeAuthorizationCode(db, env, project, { code: params.code, codeVerifier: params.code_verifier, redirectUri: params.redirect_uri });
        c.header("pragma", "no-cache");
        return answer;
      }
      if (grantType !== "refresh_token") return oauthError(c, "unsupported_grant_type", `Unsupported grant type: ${grantType}`);
      const refreshToken = params.refresh_token;
      if (!refreshToken) return oauthError(c, "invalid_request", "Missing parameter: refresh_token");

      const session = await findCachedSession(db, c.get("deps").caches, project.id, refreshToken);
      const accessToken = await refreshedAccessToken(c, project, session);
      c.header("pragma", "no-cache");
      return { access_token: accessToken, token_type: "bearer", expires_in: env.accessTokenLifetimeSeconds, refresh_token: refreshToken } as const;
    },
  }),
];

function renderSession(row: SessionRow, currentSessionId: string | null): SessionRead {
  return {
    id: row.id,
    user_id: row.user_id,
    created_at: row.created_at.getTime(),
    is_impersonation: row.is_impersonation,
    last_used_at: row.last_used_at.getTime(),
    is_current_session: row.id === currentSessionId,
    ...(row.last_used_user_agent ? { last_used_at_user_agent: row.last_used_user_agent } : {}),
    // No geolocation database is bundled: the address is known, and its country when a trusted proxy said it.
    ...(row.last_used_ip
      ? {
          last_used_at_end_user_ip_info: {
            ip: row.last_used_ip,
            countryCode: row.last_used_country_code,
            regionCode: null,
            cityName: null,
            latitude: null,
            longitude: null,
            tzIdentifier: null,
          },
        }
      : {}),
  };
}

async function findProjectSession(db: Db, projectId: string, sessionId: string): Promise<SessionRow | undefined> {
  if (!UUID.test(sessionId)) return undefined;
  return db.selectFrom("sessions").selectAll().where("project_id", "=", projectId).where("id", "=", sessionId.toLowerCase()).executeTakeFirst();
}

/** The string parameters of a form or JSON body; anything else counts as absent. */
function formParams(body: unknown): Record<string, string | undefined> {
  if (typeof body !== "object" || body === null || Array.isArray(body) || body instanceof Uint8Array) return {};
  const params: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === "string" && value !== "") params[key] = value;
  return params;
}

function oauthError(c: Context<AppEnv>, error: OAuthTokenErrorCode, description: string): Response {
  return c.json({ error, error_description: description }, 400);
}

/**
 * RFC 6749 §2.3.1 client authentication, by HTTP Basic or by client_id/client_secret in the body: the
 * client id names the project (and optionally its branch), the secret is one of its publishable client keys.
 */
async function authenticateClient(c: Context<AppEnv>, params: Record<string, string | undefined>): Promise<ProjectRow> {
  const credentials = basicCredentials(c.req.header("authorization")) ?? { clientId: params.client_id, clientSecret: params.client_secret };
  const { clientId, clientSecret } = credentials;
  if (!clientId || !clientSecret) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  const client = await oauthClientProject(c, clientId, clientSecret);
  if (!client?.keyAccepted) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  return client.project;
}

function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  // Both halves are form-urlencoded before encoding (RFC 6749 §2.3.1).
  const unescape = (s: string) => {
    try {
      return decodeURIComponent(s.replaceAll("+", " "));
    } catch {
      return s;
    }
  };
  return { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) };
}

/**
 * A new access token for a live session of the project, recording its use. Its user's record comes from the
 * user cache and the project from the project cache, both dropped on any change, so the token always tells
 * the user's present state (an email verified since the last token: no longer restricted).
 */
async function refreshedAccessToken(c: Context<AppEnv>, project: ProjectRow, session: SessionRow): Promise<string> {
  const { db, env, caches } = c.get("deps");
  const [record] = await Promise.all([findCachedUserRecord(db, caches, session.project_id, session.user_id), touchSession(db, session)]);
  if (!record) throw new KnownErrors.RefreshTokenNotFoundOrExpired();
  return accessTokenForUserRecord(db, env, session, record, restrictionPolicy(project));
}
