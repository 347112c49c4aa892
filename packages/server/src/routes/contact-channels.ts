import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  CODE_VALID_RESPONSE,
  codeValidResponse,
  contactChannelByIdSendVerificationCodeBody,
  contactChannelClientCreateBody,
  contactChannelClientUpdateBody,
  contactChannelListQuery,
  contactChannelListResponse,
  contactChannelParams,
  contactChannelRead,
  contactChannelSendVerificationCodeBody,
  contactChannelServerCreateBody,
  contactChannelServerUpdateBody,
  contactChannelVerifyBody,
  successResponse,
} from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { attemptIp } from "../http/client-ip.js";
import { namedUser } from "../http/named-user.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import {
  createContactChannel,
  deleteContactChannel,
  findContactChannel,
  findPrimaryEmailChannel,
  listContactChannels,
  renderContactChannel,
  updateContactChannel,
} from "../services/contact-channels.js";
import { checkEmailVerificationCode, sendEmailVerification, verifyEmailWithCode, type MailDeps } from "../services/email-verification.js";
import type { ProjectRow } from "../services/projects.js";
import { findUserRow } from "../services/user-rows.js";

const TAGS = ["Contact channels"];
const CODE_ERRORS = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
];

/**
 * Contact channels and email verification (SPEC.md §7 "Users and contact channels"). Every route takes any
 * access type: a client works on its signed-in user's channels only (`me` or its own id), servers and
 * admins on any user's. The read shape is the same for everyone; only servers write `is_verified`.
 */
export const contactChannelsRoutes = [
  defineRoute({
    method: "post",
    path: "/contact-channels/send-verification-code",
    summary: "Mail a verification link to the signed-in user's primary email",
    description: "The older form of `/contact-channels/{user_id}/{contact_channel_id}/send-verification-code`, for the user's primary email.",
    tags: TAGS,
    access: ANY_ACCESS,
    requiresUser: true,
    deprecated: true,
    request: { body: contactChannelSendVerificationCodeBody },
    response: { description: "The link was mailed.", schema: successResponse },
    errors: [KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.EmailIsNotPrimaryEmail, KnownErrors.EmailAlreadyVerified],
    handler: async (c, { auth, body }) => {
      // `requiresUser`: a request without a signed-in user was refused before the handler.
      const user = auth.user!;
      assertCallbackTrusted(c, auth.project, body.callback_url);
      const primary = await findPrimaryEmailChannel(c.get("deps").db, user.id);
      if (primary?.value !== body.email) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, primary?.value ?? null);
      if (primary.is_verified) throw new KnownErrors.EmailAlreadyVerified();
      await sendEmailVerification(requestDeps(c), auth.project, {
        userId: user.id,
        userDisplayName: user.display_name,
        email: primary.value,
        callbackUrl: body.callback_url,
        clientIp: attemptIp(c, auth.type),
      });
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/contact-channels/verify",
    summary: "Verify an email with the code from its link",
    description: "An unused code succeeds even when the email was verified meanwhile; a used one is VERIFICATION_CODE_ALREADY_USED.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: contactChannelVerifyBody },
    response: { description: "The channel is verified.", schema: successResponse },
    errors: CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await verifyEmailWithCode(c.get("deps").db, auth.project.id, body.code);
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/contact-channels/verify/check-code",
    summary: "Check an email verification code without using it",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: contactChannelVerifyBody },
    response: { description: "The code can be used.", schema: codeValidResponse },
    errors: CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await checkEmailVerificationCode(c.get("deps").db, auth.project.id, body.code);
      return CODE_VALID_RESPONSE;
    },
  }),
  defineRoute({
    method: "get",
    path: "/contact-channels",
    summary: "List contact channels",
    description: "A client lists its own user's channels (`user_id=me`); a server may leave `user_id` out to list every channel of the project.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: contactChannelListQuery },
    response: { description: "The channels, oldest first.", schema: contactChannelListResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const userId = auth.type === "client" || query.user_id !== undefined ? namedUser(auth, query.user_id, forbidden("list")) : undefined;
      const rows = await listContactChannels(c.get("deps").db, auth.project.id, { userId, channelId: query.contact_channel_id?.toLowerCase() });
      return { items: rows.map(renderContactChannel), is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/contact-channels",
    summary: "Create a contact channel",
    description: "Only servers may create a channel that is already verified (`is_verified`).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: contactChannelServerCreateBody },
    clientRequest: { body: contactChannelClientCreateBody },
    response: { status: 201, description: "The new channel.", schema: contactChannelRead },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserIdDoesNotExist, KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse],
    handler: async (c, { auth, body }) => {
      const userId = namedUser(auth, body.user_id, forbidden("create"));
      const row = await createContactChannel(c.get("deps").db, auth.project.id, {
        userId,
        type: body.type,
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: "is_verified" in body ? body.is_verified : undefined,
      });
      return renderContactChannel(row);
    },
  }),
  defineRoute({
    method: "get",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Read a contact channel",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: contactChannelParams },
    response: { description: "The channel.", schema: contactChannelRead },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      const userId = namedUser(auth, params.user_id, forbidden("read"));
      const row = await findContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase());
      if (!row) throw new HTTPException(404, { message: "Contact channel not found." });
      return renderContactChannel(row);
    },
  }),
  defineRoute({
    method: "patch",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Update a contact channel",
    description: "Omitted fields stay as they are; a new value is unverified unless a server says otherwise. Only servers write `is_verified`.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: contactChannelParams, body: contactChannelServerUpdateBody },
    clientRequest: { params: contactChannelParams, body: contactChannelClientUpdateBody },
    response: { description: "The updated channel.", schema: contactChannelRead },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse],
    handler: async (c, { auth, params, body }) => {
      const userId = namedUser(auth, params.user_id, forbidden("update"));
      const row = await updateContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase(), {
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: "is_verified" in body ? body.is_verified : undefined,
      });
      if (!row) throw channelNotFoundForWrite();
      return renderContactChannel(row);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Delete a contact channel",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: contactChannelParams },
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      const userId = namedUser(auth, params.user_id, forbidden("delete"));
      if (!(await deleteContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase()))) throw channelNotFoundForWrite();
      return { success: true } as const;
    },
  }),
  defineRoute({
    method: "post",
    path: "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
    summary: "Mail a verification link to a contact channel",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: contactChannelParams, body: contactChannelByIdSendVerificationCodeBody },
    response: { description: "The link was mailed.", schema: successResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserNotFound, KnownErrors.RedirectUrlNotWhitelisted, KnownErrors.EmailAlreadyVerified],
    handler: async (c, { auth, params, body }) => {
      const { db } = c.get("deps");
      const userId = namedUser(auth, params.user_id, () => new HTTPException(400, { message: "Can only send verification code for your own user" }));
      const user = userId === auth.user?.id ? auth.user : await findUserRow(db, auth.project.id, userId);
      if (!user) throw new KnownErrors.UserNotFound();
      assertCallbackTrusted(c, auth.project, body.callback_url);
      const channel = await findContactChannel(db, auth.project.id, userId, params.contact_channel_id.toLowerCase());
      if (!channel) throw new HTTPException(404, { message: "Contact channel not found" });
      if (channel.is_verified) throw new KnownErrors.EmailAlreadyVerified();
      await sendEmailVerification(requestDeps(c), auth.project, {
        userId,
        userDisplayName: user.display_name,
        email: channel.value,
        callbackUrl: body.callback_url,
        clientIp: attemptIp(c, auth.type),
      });
      return { success: true } as const;
    },
  }),
];

/** The protocol's 403 for a client naming another user in the CRUD routes, worded per action. */
const forbidden = (action: "list" | "create" | "read" | "update" | "delete") => () =>
  new HTTPException(403, { message: `Client can only ${action} contact channels for their own user.` });

/** The protocol answers a write to a missing channel with a plain 400, worded without the read's period. */
const channelNotFoundForWrite = () => new HTTPException(400, { message: "Contact channel not found" });

/** Mail links may only lead under the project's trusted domains (or localhost when allowed). */
function assertCallbackTrusted(c: Context<AppEnv>, project: ProjectRow, callbackUrl: string): void {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!isUrlTrustedForProject(c.get("deps").env, project.id, config, callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
}

/** The app's dependencies with this request's logger, so mail log lines carry the request id. */
function requestDeps(c: Context<AppEnv>): MailDeps {
  return { ...c.get("deps"), log: c.get("log") };
}
