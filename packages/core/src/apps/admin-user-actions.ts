import type {
  ContactChannelRead,
  OAuthProviderServerRead,
  ProjectApiKeyCreated,
  ProjectApiKeyRead,
  ProjectPermissionRead,
  SessionRead,
} from "@latchkey/protocol/schemas";
import { contactChannelFromWire, type ContactChannel } from "../wire/contact-channels.js";
import { userOAuthLinkFromWire, type UserOAuthLink } from "../wire/oauth-providers.js";
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

export type { UserOAuthLink };

/** What a server may change about any user's contact channel; `isVerified` is the server's alone. */
export interface UserContactChannelUpdate {
  value?: string;
  usedForAuth?: boolean;
  /** Making a channel primary makes its address the user's primary email. */
  isPrimary?: boolean;
  isVerified?: boolean;
}

const id = (value: string) => encodeURIComponent(value);

/**
 * An admin's view of one user beyond the user record (SPEC.md §7): their contact channels, sessions,
 * project permissions, OAuth links and API keys, by user id (their teams: `listServerTeams({ userId })`).
 * Each is the protocol's own route with the user's id where a client would say `me`; sessions listed to an
 * admin include impersonation sessions.
 */
export function adminUserActions(ctx: AppContext) {
  return {
    async listUserContactChannels(userId: string): Promise<ContactChannel[]> {
      const { items } = await ctx.call<{ items: ContactChannelRead[] }>({ method: "GET", path: "/contact-channels", query: { user_id: userId }, session: null });
      return items.map(contactChannelFromWire);
    },

    async updateUserContactChannel(userId: string, channelId: string, update: UserContactChannelUpdate): Promise<ContactChannel> {
      const body: Record<string, unknown> = {};
      if (update.value !== undefined) body.value = update.value;
      if (update.usedForAuth !== undefined) body.used_for_auth = update.usedForAuth;
      if (update.isPrimary !== undefined) body.is_primary = update.isPrimary;
      if (update.isVerified !== undefined) body.is_verified = update.isVerified;
      const wire = await ctx.call<ContactChannelRead>({ method: "PATCH", path: `/contact-channels/${id(userId)}/${id(channelId)}`, body, session: null });
      return contactChannelFromWire(wire);
    },

    /** The user's live sessions, newest first, impersonation sessions included. */
    async listUserSessions(userId: string): Promise<UserSession[]> {
      const { items } = await ctx.call<{ items: SessionRead[] }>({ method: "GET", path: "/auth/sessions", query: { user_id: userId }, session: null });
      return items.map(sessionFromWire);
    },

    /** Ends one of the user's sessions: its refresh token stops working (access tokens live out their minutes). */
    async revokeUserSession(userId: string, sessionId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/auth/sessions/${id(sessionId)}`, query: { user_id: userId }, session: null });
    },

    /** The ids of the project permissions granted to the user directly (not those contained in them). */
    async listUserProjectPermissions(userId: string): Promise<string[]> {
      const { items } = await ctx.call<{ items: ProjectPermissionRead[] }>({ method: "GET", path: "/project-permissions", query: { user_id: userId }, session: null });
      return items.map((permission) => permission.id);
    },

    async grantUserProjectPermission(userId: string, permissionId: string): Promise<void> {
      await ctx.call({ method: "POST", path: `/project-permissions/${id(userId)}/${id(permissionId)}`, body: {}, session: null });
    },

    async revokeUserProjectPermission(userId: string, permissionId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/project-permissions/${id(userId)}/${id(permissionId)}`, session: null });
    },

    async listUserOAuthLinks(userId: string): Promise<UserOAuthLink[]> {
      const { items } = await ctx.call<{ items: OAuthProviderServerRead[] }>({ method: "GET", path: "/oauth-providers", query: { user_id: userId }, session: null });
      return items.map(userOAuthLinkFromWire);
    },

    /** Unlinks a provider account from the user (by the link's id); the provider's stored tokens go with it. */
    async deleteUserOAuthLink(userId: string, linkId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/oauth-providers/${id(userId)}/${id(linkId)}`, session: null });
    },

    /** The user's API keys, revoked ones included (with their revocation time). */
    async listUserApiKeys(userId: string): Promise<UserApiKey[]> {
      const { items } = await ctx.call<{ items: ProjectApiKeyRead[] }>({ method: "GET", path: "/user-api-keys", query: { user_id: userId }, session: null });
      return items.map(userApiKeyFromWire);
    },

    /** Creates an API key for the user: the answer holds the whole key, the only time it is ever shown. */
    async createUserApiKey(userId: string, create: UserApiKeyCreate): Promise<UserApiKeyFirstView> {
      const wire = await ctx.call<ProjectApiKeyCreated>({ method: "POST", path: "/user-api-keys", body: userApiKeyCreateToWire(create, userId), session: null });
      return userApiKeyFirstViewFromWire(wire);
    },

    /** Revokes one of the user's API keys (the protocol patches `revoked: true`); it stays listed with its revocation time. */
    async revokeUserApiKey(userId: string, keyId: string): Promise<UserApiKey> {
      const wire = await ctx.call<ProjectApiKeyRead>({ method: "PATCH", path: `/user-api-keys/${id(keyId)}`, query: { user_id: userId }, body: { revoked: true }, session: null });
      return userApiKeyFromWire(wire);
    },
  };
}
