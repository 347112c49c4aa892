import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  CODE_VALID_RESPONSE,
  contactChannelByIdSendVerificationCodeBody,
  contactChannelClientCreateBody,
  contactChannelClientUpdateBody,
  contactChannelListQuery,
  contactChannelParams,
  contactChannelSendVerificationCodeBody,
  contactChannelServerCreateBody,
  contactChannelServerUpdateBody,
  contactChannelVerifyBody,
  type ContactChannelServerCreateBody,
  type ContactChannelServerUpdateBody,
} from "@latchkey/protocol/schemas";
import type { z } from "zod";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { isUrlTrustedByProject } from "../config/trusted-domains.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
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

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * Contact channels and email verification (SPEC.md §7 "Users and contact channels"). Every route takes any
 * access type: a client works on its signed-in user's channels only (`me` or its own id), servers and
 * admins on any user's. The read shape is the same for everyone; only servers write `is_verified`.
 */
export function contactChannelsRoutes() {
  return new Hono<AppEnv>()
    .post("/contact-channels/send-verification-code", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: contactChannelSendVerificationCodeBody });
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      assertCallbackTrusted(auth.project, body.callback_url);
      const primary = await findPrimaryEmailChannel(c.get("deps").db, auth.user.id);
      if (primary?.value !== body.email) throw new KnownErrors.EmailIsNotPrimaryEmail(body.email, primary?.value ?? null);
      if (primary.is_verified) throw new KnownErrors.EmailAlreadyVerified();
      await sendEmailVerification(requestDeps(c), auth.project, {
        userId: auth.user.id,
        userDisplayName: auth.user.display_name,
        email: primary.value,
        callbackUrl: body.callback_url,
      });
      return c.json({ success: true }, 200);
    })
    .post("/contact-channels/verify", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: contactChannelVerifyBody });
      await verifyEmailWithCode(c.get("deps").db, auth.project.id, body.code);
      return c.json({ success: true }, 200);
    })
    .post("/contact-channels/verify/check-code", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: contactChannelVerifyBody });
      await checkEmailVerificationCode(c.get("deps").db, auth.project.id, body.code);
      return c.json(CODE_VALID_RESPONSE, 200);
    })
    .get("/contact-channels", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: contactChannelListQuery });
      // Servers may list every channel of the project by leaving `user_id` out; clients must name themselves.
      const userId = auth.type === "client" || query.user_id !== undefined ? channelOwner(auth, query.user_id, forbidden("list")) : undefined;
      const rows = await listContactChannels(c.get("deps").db, auth.project.id, { userId, channelId: query.contact_channel_id?.toLowerCase() });
      return c.json({ items: rows.map(renderContactChannel), is_paginated: false }, 200);
    })
    .post("/contact-channels", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: createBodyFor(auth) });
      const userId = channelOwner(auth, body.user_id, forbidden("create"));
      const row = await createContactChannel(c.get("deps").db, auth.project.id, {
        userId,
        type: body.type,
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: body.is_verified,
      });
      return c.json(renderContactChannel(row), 201);
    })
    .get("/contact-channels/:user_id/:contact_channel_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: contactChannelParams });
      const userId = channelOwner(auth, params.user_id, forbidden("read"));
      const row = await findContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase());
      if (!row) throw new HTTPException(404, { message: "Contact channel not found." });
      return c.json(renderContactChannel(row), 200);
    })
    .patch("/contact-channels/:user_id/:contact_channel_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params, body } = validate(c, { params: contactChannelParams, body: updateBodyFor(auth) });
      const userId = channelOwner(auth, params.user_id, forbidden("update"));
      const row = await updateContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase(), {
        value: body.value,
        usedForAuth: body.used_for_auth,
        isPrimary: body.is_primary,
        isVerified: body.is_verified,
      });
      // The protocol answers a write to a missing channel with a plain 400 (a read with a 404).
      if (!row) throw new HTTPException(400, { message: "Contact channel not found." });
      return c.json(renderContactChannel(row), 200);
    })
    .delete("/contact-channels/:user_id/:contact_channel_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: contactChannelParams });
      const userId = channelOwner(auth, params.user_id, forbidden("delete"));
      if (!(await deleteContactChannel(c.get("deps").db, auth.project.id, userId, params.contact_channel_id.toLowerCase()))) {
        throw new HTTPException(400, { message: "Contact channel not found." });
      }
      return c.json({ success: true }, 200);
    })
    .post("/contact-channels/:user_id/:contact_channel_id/send-verification-code", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params, body } = validate(c, { params: contactChannelParams, body: contactChannelByIdSendVerificationCodeBody });
      const { db } = c.get("deps");
      const userId = channelOwner(auth, params.user_id, () => new HTTPException(400, { message: "Can only send verification code for your own user" }));
      const user = userId === auth.user?.id ? auth.user : await findUserRow(db, auth.project.id, userId);
      if (!user) throw new KnownErrors.UserNotFound();
      assertCallbackTrusted(auth.project, body.callback_url);
      const channel = await findContactChannel(db, auth.project.id, userId, params.contact_channel_id.toLowerCase());
      if (!channel) throw new HTTPException(404, { message: "Contact channel not found" });
      if (channel.is_verified) throw new KnownErrors.EmailAlreadyVerified();
      await sendEmailVerification(requestDeps(c), auth.project, {
        userId,
        userDisplayName: user.display_name,
        email: channel.value,
        callbackUrl: body.callback_url,
      });
      return c.json({ success: true }, 200);
    });
}

/**
 * The user whose channels a request names: `me`, or an id. A client must have a signed-in user and may
 * name only that user; naming another is refused with `refusal`, the protocol's error for the route.
 */
function channelOwner(auth: RequestAuth, userId: string | undefined, refusal: () => HTTPException): string {
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (userId !== "me" && userId?.toLowerCase() !== auth.user.id) throw refusal();
    return auth.user.id;
  }
  if (userId === "me" || userId === undefined) {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    return auth.user.id;
  }
  return userId.toLowerCase();
}

/** The protocol's 403 for a client naming another user in the CRUD routes, worded per action. */
const forbidden = (action: "list" | "create" | "read" | "update" | "delete") => () =>
  new HTTPException(403, { message: `Client can only ${action} contact channels for their own user.` });

// Only servers write `is_verified`: in a client's body it is an unknown property. A client's body is a
// server body without it, so both read as the server shape.
const createBodyFor = (auth: RequestAuth): z.ZodType<ContactChannelServerCreateBody> =>
  auth.type === "client" ? contactChannelClientCreateBody : contactChannelServerCreateBody;
const updateBodyFor = (auth: RequestAuth): z.ZodType<ContactChannelServerUpdateBody> =>
  auth.type === "client" ? contactChannelClientUpdateBody : contactChannelServerUpdateBody;

/** Mail links may only lead under the project's trusted domains (or localhost when allowed). */
function assertCallbackTrusted(project: ProjectRow, callbackUrl: string): void {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!isUrlTrustedByProject(config, callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
}

/** The app's dependencies with this request's logger, so mail log lines carry the request id. */
function requestDeps(c: Context<AppEnv>): MailDeps {
  return { ...c.get("deps"), log: c.get("log") };
}
