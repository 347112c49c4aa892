import type { ContactChannelRead, NotificationPreferenceRead, ProjectApiKeyCreated, ProjectApiKeyRead, SessionRead } from "@latchkey/protocol/schemas";
import { contactChannelFromWire, contactChannelUpdateToWire, type ContactChannel, type ContactChannelUpdate } from "../wire/contact-channels.js";
import { notificationCategoryFromWire, type NotificationCategory } from "../wire/notification-categories.js";
import { sessionFromWire, type UserSession } from "../wire/sessions.js";
import {
  userApiKeyCreateToWire,
  userApiKeyFirstViewFromWire,
  userApiKeyFromWire,
  type UserApiKey,
  type UserApiKeyCreate,
  type UserApiKeyFirstView,
} from "../wire/user-api-keys.js";
import type { AppContext } from "./app-context.js";

/**
 * The signed-in user's account settings (SPEC.md §7 "Users and contact channels", "Auth", "Emails",
 * "API keys"): contact channels, sessions, deleting the account, notification preferences and API keys.
 */
export interface ClientAccountActions {
  /** Mails a verification link for one of the user's channels; the link leads to `callbackUrl` (default: the email-verification page). */
  sendContactChannelVerificationEmail(id: string, options?: { callbackUrl?: string }): Promise<void>;
  updateContactChannel(id: string, update: ContactChannelUpdate): Promise<ContactChannel>;
  deleteContactChannel(id: string): Promise<void>;
  listSessions(): Promise<UserSession[]>;
  /** Ends another session of the user (its refresh token stops working). The current one is signed out instead. */
  revokeSession(id: string): Promise<void>;
  /** Deletes the signed-in user (if the project allows it) and forgets the session here. */
  deleteUser(): Promise<void>;
  listNotificationCategories(): Promise<NotificationCategory[]>;
  setNotificationCategoryEnabled(id: string, enabled: boolean): Promise<void>;
  listApiKeys(): Promise<UserApiKey[]>;
  /** Creates a key; the answer is the only time its whole value is shown. */
  createApiKey(create: UserApiKeyCreate): Promise<UserApiKeyFirstView>;
  revokeApiKey(id: string): Promise<void>;
}

const id = (value: string) => encodeURIComponent(value);

/**
 * `afterChange` reloads the user's stores after an edit (a channel made primary changes `$user`);
 * `afterSessionChange` waits for the reload that clearing the session has started.
 */
export function clientAccountActions(ctx: AppContext, afterChange: () => Promise<void>, afterSessionChange: () => Promise<void>): ClientAccountActions {
  return {
    async sendContactChannelVerificationEmail(channelId, options = {}) {
      await ctx.call({
        method: "POST",
        path: `/contact-channels/me/${id(channelId)}/send-verification-code`,
        // Mail links must be absolute: the person opens them from their inbox, not from this page.
        body: { callback_url: options.callbackUrl ?? ctx.absoluteUrl(ctx.urls.emailVerification) },
      });
    },

    async updateContactChannel(channelId, update) {
      const wire = await ctx.call<ContactChannelRead>({ method: "PATCH", path: `/contact-channels/me/${id(channelId)}`, body: contactChannelUpdateToWire(update) });
      await afterChange();
      return contactChannelFromWire(wire);
    },

    async deleteContactChannel(channelId) {
      await ctx.call({ method: "DELETE", path: `/contact-channels/me/${id(channelId)}` });
      await afterChange();
    },

    async listSessions() {
      const { items } = await ctx.call<{ items: SessionRead[] }>({ method: "GET", path: "/auth/sessions", query: { user_id: "me" } });
      return items.map(sessionFromWire);
    },

    async revokeSession(sessionId) {
      await ctx.call({ method: "DELETE", path: `/auth/sessions/${id(sessionId)}`, query: { user_id: "me" } });
    },

    async deleteUser() {
      await ctx.call({ method: "DELETE", path: "/users/me" });
      // The server has ended every session of the user with it; keeping the tokens would only make the next
      // request fail. Clearing them signs out here, and the session subscription reloads $user to null.
      ctx.session.clear();
      await afterSessionChange();
    },

    async listNotificationCategories() {
      const { items } = await ctx.call<{ items: NotificationPreferenceRead[] }>({ method: "GET", path: "/emails/notification-preference/me" });
      return items.map(notificationCategoryFromWire);
    },

    async setNotificationCategoryEnabled(categoryId, enabled) {
      await ctx.call({ method: "PATCH", path: `/emails/notification-preference/me/${id(categoryId)}`, body: { enabled } });
    },

    async listApiKeys() {
      const { items } = await ctx.call<{ items: ProjectApiKeyRead[] }>({ method: "GET", path: "/user-api-keys", query: { user_id: "me" } });
      return items.map(userApiKeyFromWire);
    },

    async createApiKey(create) {
      return userApiKeyFirstViewFromWire(await ctx.call<ProjectApiKeyCreated>({ method: "POST", path: "/user-api-keys", body: userApiKeyCreateToWire(create) }));
    },

    async revokeApiKey(keyId) {
      // The protocol revokes by patching `revoked: true`; the key stays listed with its revocation time.
      await ctx.call({ method: "PATCH", path: `/user-api-keys/${id(keyId)}`, query: { user_id: "me" }, body: { revoked: true } });
    },
  };
}
