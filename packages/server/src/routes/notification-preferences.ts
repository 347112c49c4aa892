import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  notificationPreferenceListParams,
  notificationPreferenceParams,
  notificationPreferenceUpdateBody,
  unsubscribeLinkQuery,
} from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import {
  categoryById,
  listNotificationPreferences,
  setNotificationPreference,
  unsubscribeWithCode,
} from "../services/notification-preferences.js";
import { sendEmailRoute } from "./send-email.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * Notification preferences (SPEC.md §3 "Notification category", §7 Emails):
 * - `GET /emails/notification-preference/{user_id}` — every category with the user's choice;
 * - `PATCH /emails/notification-preference/{user_id}/{notification_category_id}` `{enabled}`;
 * - `GET|POST /emails/unsubscribe-link?code=` — the link in non-transactional mail, no sign-in needed
 *   (POST is the one-click unsubscribe mail clients send for `List-Unsubscribe-Post`, RFC 8058);
 * - `POST /emails/send-email` (server), in routes/send-email.ts.
 * `user_id` is `me` or a UUID; a client reaches only its own user.
 */
export function notificationPreferencesRoutes() {
  return new Hono<AppEnv>()
    .get("/emails/notification-preference/:user_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: notificationPreferenceListParams });
      const userId = await addressedUser(c, auth, params.user_id, "You can only view your own notification preferences");
      const items = await listNotificationPreferences(c.get("deps").db, auth.project.id, userId);
      return c.json({ items, is_paginated: false }, 200);
    })
    .patch("/emails/notification-preference/:user_id/:notification_category_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params, body } = validate(c, { params: notificationPreferenceParams, body: notificationPreferenceUpdateBody });
      const category = categoryById(params.notification_category_id);
      if (!category) throw new HTTPException(404, { message: "Notification category not found" });
      const userId = await addressedUser(c, auth, params.user_id, "You can only manage your own notification preferences");
      if (!category.canDisable && !body.enabled) {
        // The protocol has no known error for this; its categories say `can_disable: false` up front.
        throw new HTTPException(400, { message: `The notification category ${category.name} cannot be disabled.` });
      }
      const saved = await setNotificationPreference(c.get("deps").db, { projectId: auth.project.id, userId, category, enabled: body.enabled });
      if (!saved) throw new KnownErrors.UserIdDoesNotExist(userId);
      return c.json(saved, 200);
    })
    .get("/emails/unsubscribe-link", async (c) => {
      const { query } = validate(c, { query: unsubscribeLinkQuery });
      await unsubscribeWithCode(c.get("deps").db, query.code);
      return c.text("Successfully unsubscribed from notification group", 200);
    })
    .post("/emails/unsubscribe-link", async (c) => {
      const { query } = validate(c, { query: unsubscribeLinkQuery });
      await unsubscribeWithCode(c.get("deps").db, query.code);
      return c.text("Successfully unsubscribed from notification group", 200);
    })
    .route("/", sendEmailRoute());
}

/**
 * The user a preference path names: `me` is the signed-in user (USER_AUTHENTICATION_REQUIRED without
 * one); a client may name only itself (403, as the protocol answers); a server's user must exist.
 */
async function addressedUser(c: Context<AppEnv>, auth: RequestAuth, named: string, forbidden: string): Promise<string> {
  if (named === "me") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    return auth.user.id;
  }
  const userId = named.toLowerCase();
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    if (auth.user.id !== userId) throw new HTTPException(403, { message: forbidden });
    return userId;
  }
  const exists = await c
    .get("deps")
    .db.selectFrom("users")
    .select("id")
    .where("project_id", "=", auth.project.id)
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!exists) throw new KnownErrors.UserIdDoesNotExist(userId);
  return userId;
}
