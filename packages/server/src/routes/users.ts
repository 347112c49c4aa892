import type { Context } from "hono";
import { z } from "zod";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  userClientUpdateBody,
  userIdParams,
  userListQuery,
  userServerCreateBody,
  userServerUpdateBody,
  successResponse,
  userClientRead,
  userListResponse,
  userServerRead,
  type UserServerUpdateBody,
} from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { hashPassword, isSupportedPasswordHash } from "../crypto/passwords.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { renderOnce } from "../http/answer.js";
import { checkProfileImageUrl } from "../services/profile-images.js";
import { findProjectProvider } from "../oauth/project-providers.js";
import {
  createUser,
  deleteUser,
  listUsers,
  updateUser,
  type UserUpdate,
} from "../services/users.js";
import type { UserRow } from "../services/user-rows.js";
import { completeUserRecords, loadUserRecord, renderClientUser, renderServerUser, type UserRecord } from "../services/user-read.js";
import { restrictionPolicy } from "../services/user-restrictions.js";

const SERVER_ACCESS = ["server", "admin"] as const;
const TAGS = ["Users"];
const clientOrServerUser = z.union([userClientRead, userServerRead]);

/**
 * Users (SPEC.md §7 "Users and contact channels"): the signed-in user at `/users/me` (any access type,
 * each seeing and writing its own shape), and for servers and admins `POST /users`, `GET /users` and
 * `GET/PATCH/DELETE /users/{id}`, where `me` names the signed-in user.
 */
export const usersRoutes = [
  defineRoute({
    method: "get",
    path: "/users/me",
    summary: "Read the signed-in user",
    tags: TAGS,
    access: ANY_ACCESS,
    response: { description: "The user, in the caller's shape (client or server).", schema: clientOrServerUser },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: (_c, { auth }) => {
      // The pipeline already loaded the signed-in user's whole record (from the user cache when it can). A cached
      // record is replaced, never changed, when the user changes: its answer is rendered once per shape.
      currentUser(auth);
      const record = auth.userRecord!;
      return renderOnce(record, restrictionPolicy(auth.project), auth.type === "client" ? "client" : "server", () => renderFor(auth, record));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/users/me",
    summary: "Update the signed-in user",
    description:
      "A client may write only its own fields (display name, image, client metadata, selected team, sign-in methods, and in the " +
      "2.8.108 protocol its primary email, which then needs verifying).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: userServerUpdateBody },
    // A client may write only its own fields: anything else is "body contains unknown properties".
    clientRequest: { body: userClientUpdateBody },
    response: { description: "The updated user, in the caller's shape.", schema: clientOrServerUser },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound, KnownErrors.UserWithEmailAlreadyExists],
    handler: async (c, { auth, body }) => {
      const record = await applyUpdate(c, auth, currentUserId(auth), body);
      return renderFor(auth, record);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/users/me",
    summary: "Delete the signed-in user",
    description: "Clients may delete themselves only when the project enables `client_user_deletion_enabled`.",
    tags: TAGS,
    access: ANY_ACCESS,
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound],
    handler: async (c, { auth }) => {
      const userId = currentUserId(auth);
      if (auth.type === "client" && !renderProjectConfig(auth.project.config_override as ConfigObject).users.allowClientUserDeletion) {
        // The protocol has no known error for this; it answers with a plain 400.
        throw new HTTPException(400, { message: "Client user deletion is not enabled for this project" });
      }
      if (!(await deleteUser(c.get("deps").db, auth.project.id, userId))) throw new KnownErrors.UserNotFound();
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/users",
    summary: "Create a user",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { body: userServerCreateBody },
    response: { status: 201, description: "The new user.", schema: userServerRead },
    errors: [KnownErrors.UserWithEmailAlreadyExists, KnownErrors.OAuthProviderNotFoundOrNotEnabled, KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn],
    handler: async (c, { auth, body }) => {
      if (body.primary_email_auth_enabled && !body.primary_email) throw new HTTPException(400, { message: "primary_email_auth_enabled cannot be true without primary_email" });
      if (body.primary_email_verified && !body.primary_email) throw new HTTPException(400, { message: "primary_email_verified cannot be true without primary_email" });
      const config = renderProjectConfig(auth.project.config_override as ConfigObject);
      const oauthAccounts = (body.oauth_providers ?? []).map((link) => {
        const provider = findProjectProvider(config, link.id);
        if (!provider) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
        return { providerConfigId: provider.configId, accountId: link.account_id, email: link.email };
      });
      const passwordHash = await passwordHashOf(body);
      const { db, env } = c.get("deps");
      // Servers create users even when sign-up is disabled (SPEC.md §6).
      const user = await createUser(db, auth.project, {
        displayName: body.display_name,
        profileImage: checkProfileImageUrl(body.profile_image_url, { publicUrl: env.publicUrl, uploadsOnly: false }),
        clientMetadata: body.client_metadata,
        clientReadOnlyMetadata: body.client_read_only_metadata,
        serverMetadata: body.server_metadata,
        primaryEmail: body.primary_email,
        primaryEmailVerified: body.primary_email_verified ?? false,
        // As in the protocol, a server-created user's email signs in only when asked for.
        primaryEmailAuthEnabled: body.primary_email_auth_enabled ?? false,
        passwordHash: passwordHash ?? null,
        totpSecret: totpSecretOf(body.totp_secret_base64) ?? null,
        otpAuthEnabled: body.otp_auth_enabled,
        passkeyAuthEnabled: body.passkey_auth_enabled,
        isAnonymous: body.is_anonymous,
        ...restrictionFields(body),
        oauthAccounts,
      });
      // The protocol renders the new user before its personal team exists: no selected team in this answer,
      // though every later read shows it.
      const record = await loadUserRecord(db, auth.project.id, user.id);
      return { ...renderServerUser(record, restrictionPolicy(auth.project)), selected_team: null, selected_team_id: null };
    },
  }),
  defineRoute({
    method: "get",
    path: "/users",
    summary: "List users",
    description: "Paginated by cursor (the id of a page's first user), searchable by name, email or id.",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { query: userListQuery },
    response: { description: "A page of users.", schema: userListResponse },
    handler: async (c, { auth, query }) => {
      const { db } = c.get("deps");
      const policy = restrictionPolicy(auth.project);
      const page = await listUsers(db, auth.project.id, {
        cursor: query.cursor?.toLowerCase(),
        limit: query.limit,
        orderBy: query.order_by,
        desc: query.desc === "true",
        query: query.query,
        includeAnonymous: query.include_anonymous === "true",
        onlyAnonymous: query.only_anonymous === "true",
        includeRestricted: query.include_restricted === "true",
        restrictionPolicy: policy,
        teamId: query.team_id?.toLowerCase(),
      });
      const records = await completeUserRecords(db, page.users);
      return { items: records.map((record) => renderServerUser(record, policy)), is_paginated: true, pagination: { next_cursor: page.nextCursor } } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/users/:user_id",
    summary: "Read a user",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: userIdParams },
    response: { description: "The user.", schema: userServerRead },
    errors: [KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) =>
      renderServerUser(await loadUserRecord(c.get("deps").db, auth.project.id, namedUserId(auth, params.user_id)), restrictionPolicy(auth.project)),
  }),
  defineRoute({
    method: "patch",
    path: "/users/:user_id",
    summary: "Update a user",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: userIdParams, body: userServerUpdateBody },
    response: { description: "The updated user.", schema: userServerRead },
    errors: [KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserWithEmailAlreadyExists, KnownErrors.TeamNotFound],
    handler: async (c, { auth, params, body }) => renderServerUser(await applyUpdate(c, auth, namedUserId(auth, params.user_id), body), restrictionPolicy(auth.project)),
  }),
  defineRoute({
    method: "delete",
    path: "/users/:user_id",
    summary: "Delete a user",
    tags: TAGS,
    access: SERVER_ACCESS,
    request: { params: userIdParams },
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      if (!(await deleteUser(c.get("deps").db, auth.project.id, namedUserId(auth, params.user_id)))) throw new KnownErrors.UserNotFound();
      return { success: true } as const;
    },
  }),
];

/** The signed-in user's id, or CANNOT_GET_OWN_USER_WITHOUT_USER. */
function currentUser(auth: RequestAuth): UserRow {
  if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return auth.user;
}

function currentUserId(auth: RequestAuth): string {
  return currentUser(auth).id;
}

/** A path's user id: `me` is the signed-in user (SPEC.md §5), anything else a UUID in any case. */
function namedUserId(auth: RequestAuth, userId: string): string {
  return userId === "me" ? currentUserId(auth) : userId.toLowerCase();
}

function renderFor(auth: RequestAuth, record: UserRecord) {
  const policy = restrictionPolicy(auth.project);
  return auth.type === "client" ? renderClientUser(record, policy) : renderServerUser(record, policy);
}

/** The newer protocol's restriction and sign-up risk fields of a create or update body, for the service. */
function restrictionFields(
  body: Pick<UserServerUpdateBody, "restricted_by_admin" | "restricted_by_admin_reason" | "restricted_by_admin_private_details" | "country_code" | "risk_scores">,
) {
  return {
    restrictedByAdmin: body.restricted_by_admin,
    restrictedByAdminReason: body.restricted_by_admin_reason,
    restrictedByAdminPrivateDetails: body.restricted_by_admin_private_details,
    countryCode: body.country_code,
    riskScores: body.risk_scores && { bot: body.risk_scores.sign_up.bot, freeTrialAbuse: body.risk_scores.sign_up.free_trial_abuse },
  };
}

/**
 * The new password hash of a create or update body: hashed from `password` (null removes it), or an
 * imported `password_hash` in modular crypt format; undefined when the body sets neither.
 */
async function passwordHashOf(body: Pick<UserServerUpdateBody, "password" | "password_hash">): Promise<string | null | undefined> {
  if (body.password !== undefined && body.password_hash !== undefined) {
    throw new HTTPException(400, { message: "Cannot set both password and password_hash at the same time." });
  }
  if (body.password === null) return null;
  // No lower bound on a password a server sets, as in the protocol (the schema bounds it at 70).
  if (body.password !== undefined) return hashPassword(body.password);
  if (body.password_hash !== undefined) {
    if (!isSupportedPasswordHash(body.password_hash)) {
      throw new HTTPException(400, { message: "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format." });
    }
    return body.password_hash;
  }
  return undefined;
}

function totpSecretOf(base64: string | null | undefined): Uint8Array | null | undefined {
  return typeof base64 === "string" ? new Uint8Array(Buffer.from(base64, "base64")) : base64;
}

/** Validated update body (server shape; a client's is a subset) → the stored user's new record. */
async function applyUpdate(c: Context<AppEnv>, auth: RequestAuth, userId: string, body: Partial<UserServerUpdateBody>): Promise<UserRecord> {
  const { db, env } = c.get("deps");
  const before = await loadUserRecord(db, auth.project.id, userId);
  const emailAfter = body.primary_email !== undefined ? body.primary_email : before.primaryEmail?.value ?? null;
  if (body.primary_email_auth_enabled && emailAfter === null) throw new HTTPException(400, { message: "primary_email_auth_enabled cannot be true without primary_email" });
  if (body.primary_email_verified && emailAfter === null) throw new HTTPException(400, { message: "primary_email_verified cannot be true without primary_email" });
  const update: UserUpdate = {
    displayName: body.display_name,
    // A client may send only an image (issue 13 §2): anything else is refused before the update.
    profileImage: checkProfileImageUrl(body.profile_image_url, { publicUrl: env.publicUrl, uploadsOnly: auth.type === "client" }),
    clientMetadata: body.client_metadata,
    clientReadOnlyMetadata: body.client_read_only_metadata,
    serverMetadata: body.server_metadata,
    primaryEmail: body.primary_email,
    primaryEmailVerified: body.primary_email_verified,
    primaryEmailAuthEnabled: body.primary_email_auth_enabled,
    passwordHash: await passwordHashOf(body),
    totpSecret: totpSecretOf(body.totp_secret_base64),
    otpAuthEnabled: body.otp_auth_enabled,
    passkeyAuthEnabled: body.passkey_auth_enabled,
    selectedTeamId: body.selected_team_id?.toLowerCase() ?? body.selected_team_id,
    isAnonymous: body.is_anonymous,
    ...restrictionFields(body),
    // A user changing their own address (newer protocol) has not shown they own the new one yet.
    newPrimaryEmailUnverified: auth.type === "client",
  };
  await updateUser(db, auth.project.id, userId, update);
  return loadUserRecord(db, auth.project.id, userId);
}
