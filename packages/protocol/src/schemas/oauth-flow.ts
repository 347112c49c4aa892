import { z } from "zod";
import { protocolUrl } from "./project-config.js";

/**
 * The OAuth sign-in flow's wire (SPEC.md §7): the browser-facing authorize request the client library builds,
 * and the token endpoint's answer to the authorization_code grant.
 */

/**
 * A URL parameter of the authorize request, checked for its syntax only (the protocol's URL check). Whether the
 * URL is trusted is decided at the callback, once the provider has answered.
 */
const authorizeUrl = protocolUrl;

/** `GET /auth/oauth/authorize/{provider_id}`: the client's OAuth parameters plus the protocol's own. */
export const oauthAuthorizeQuery = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  redirect_uri: authorizeUrl,
  scope: z.string(),
  state: z.string(),
  grant_type: z.enum(["authorization_code"]),
  code_challenge: z.string(),
  code_challenge_method: z.string(),
  response_type: z.string(),
  type: z.enum(["authenticate", "link"]).default("authenticate"),
  /** The signed-in user's access token: who links (`type=link`), or the anonymous user a sign-up upgrades. */
  token: z.string().optional(),
  provider_scope: z.string().optional(),
  error_redirect_url: authorizeUrl.optional(),
  /** An older spelling of `error_redirect_url`. */
  error_redirect_uri: authorizeUrl.optional(),
  after_callback_redirect_url: z.string().optional(),
  /** 2.8.108: answer 200 `{ location }` instead of a redirect (either name; the client sends both). */
  hexclave_response_mode: z.enum(["json", "redirect"]).optional(),
  stack_response_mode: z.enum(["json", "redirect"]).optional(),
  /** 2.8.108 bot-challenge fields; no challenge is run here, so they are accepted and ignored. */
  bot_challenge_token: z.string().optional(),
  bot_challenge_phase: z.string().optional(),
  bot_challenge_unavailable: z.string().optional(),
});
export type OAuthAuthorizeQuery = z.infer<typeof oauthAuthorizeQuery>;

/** 2.8.108's JSON response mode of the authorize route. */
export const oauthAuthorizeJsonResponse = z.strictObject({ location: z.string() });

/**
 * RFC 6749 §5.1 answer to the authorization_code grant as the protocol's server words it (its OAuth library's
 * `Bearer` and a lifetime one second short of an hour), with its two extra fields in both spellings.
 */
export const authorizationCodeTokenResponse = z.strictObject({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number(),
  scope: z.string(),
  is_new_user: z.boolean(),
  newUser: z.boolean(),
  after_callback_redirect_url: z.string().nullable(),
  afterCallbackRedirectUrl: z.string().nullable(),
});
export type AuthorizationCodeTokenResponse = z.infer<typeof authorizationCodeTokenResponse>;

/** `POST /connected-accounts/{user_id}/{provider_id}/access-token`. */
export const connectedAccountAccessTokenBody = z.strictObject({ scope: z.string().optional() });
export const connectedAccountAccessTokenResponse = z.strictObject({ access_token: z.string() });

/** 2.8.108: a user's connected accounts (`GET /connected-accounts/{user_id}`), one per link that hands out tokens. */
export const connectedAccountRead = z.strictObject({ user_id: z.string(), provider: z.string(), provider_account_id: z.string() });
export const connectedAccountList = z.strictObject({ items: z.array(connectedAccountRead), is_paginated: z.literal(false) });
