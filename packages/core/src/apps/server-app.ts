import { CANNOT_GET_OWN_USER_WITHOUT_USER, USER_NOT_FOUND, isKnownError } from "../http/client-errors.js";
import type { SessionCreateResponse, UserListResponse } from "@latchkey/protocol/schemas";
import { serverUserFromWire, userUpdateToWire, type ServerUser, type ServerUserCreate, type ServerUserUpdate, type WireServerUser } from "../wire/users.js";
import { createAppContext, type AppContext, type AppOptions } from "./app-context.js";
import { buildClientApp } from "./client-app.js";
import { clientPaymentActions } from "./client-payment-actions.js";
import { serverPaymentActions } from "./server-payment-actions.js";
import { serverDataVaultActions } from "./server-data-vault-actions.js";
import { normaliseBaseUrl } from "../urls.js";

export interface ServerAppOptions extends AppOptions {
  secretServerKey: string;
  /** Lets the app refresh sessions through the OAuth token endpoint as a client would (optional). */
  publishableClientKey?: string;
}

export interface UserListOptions {
  cursor?: string;
  limit?: number;
  orderBy?: "signedUpAt";
  desc?: boolean;
  /** Free-text search over name and email. */
  query?: string;
  includeAnonymous?: boolean;
  teamId?: string;
}

export type ServerApp = ReturnType<typeof buildServerApp>;

/**
 * A server-side app with the project's secret server key: everything a client app does for the session of
 * its token store (e.g. the request being answered), plus managing any user and creating sessions.
 *
 * @example
 * ```ts
 * const app = createServerApp({ projectId, secretServerKey, baseUrl, tokenStore: request });
 * const user = await app.getServerUser(); // the request's user, with server metadata
 * const { items } = await app.listUsers({ limit: 20 });
 * ```
 */
export function createServerApp(options: ServerAppOptions): ServerApp {
  return buildServerApp(createAppContext({ ...options, baseUrl: normaliseBaseUrl(options.baseUrl) }, "server"));
}

export function buildServerApp(ctx: AppContext) {
  const client = buildClientApp(ctx);
  const asServerUser = (wire: WireServerUser) => serverUserFromWire(wire);
  const payments = clientPaymentActions(ctx);

  return {
    ...client,
    ...payments,
    // A server's getItem returns the item with increaseQuantity, decreaseQuantity and tryDecreaseQuantity.
    ...serverPaymentActions(ctx, payments.refreshPayments),
    ...serverDataVaultActions(ctx),

    /** The token store's user with server fields; null when signed out (anonymous users too, unless asked). */
    async getServerUser(options: { includeAnonymous?: boolean } = {}): Promise<ServerUser | null> {
      if (!(await ctx.session.getTokens(0))) return null;
      try {
        const user = asServerUser(await ctx.call<WireServerUser>({ method: "GET", path: "/users/me" }));
        return user.isAnonymous && !options.includeAnonymous ? null : user;
      } catch (error) {
        if (isKnownError(error, CANNOT_GET_OWN_USER_WITHOUT_USER)) return null;
        throw error;
      }
    },

    /** A page of users; pass `nextCursor` back as `cursor` for the next one (null on the last page). */
    async listUsers(options: UserListOptions = {}): Promise<{ items: ServerUser[]; nextCursor: string | null }> {
      const page = await ctx.call<UserListResponse<WireServerUser>>({
        method: "GET",
        path: "/users",
        session: null,
        query: {
          cursor: options.cursor,
          limit: options.limit,
          order_by: options.orderBy === "signedUpAt" ? "signed_up_at" : undefined,
          desc: options.desc,
          query: options.query,
          include_anonymous: options.includeAnonymous,
          team_id: options.teamId,
        },
      });
      return { items: page.items.map(asServerUser), nextCursor: page.pagination.next_cursor };
    },

    /** A user by id, or null if the project has no such user. */
    async getUserById(userId: string): Promise<ServerUser | null> {
      try {
        return asServerUser(await ctx.call<WireServerUser>({ method: "GET", path: `/users/${encodeURIComponent(userId)}`, session: null }));
      } catch (error) {
        if (isKnownError(error, USER_NOT_FOUND)) return null;
        throw error;
      }
    },

    /** Creates a user (even when sign-up is disabled, SPEC.md §6). */
    async createUser(create: ServerUserCreate): Promise<ServerUser> {
      return asServerUser(await ctx.call<WireServerUser>({ method: "POST", path: "/users", body: userUpdateToWire(create), session: null }));
    },

    async updateUserById(userId: string, update: ServerUserUpdate): Promise<ServerUser> {
      const wire = await ctx.call<WireServerUser>({ method: "PATCH", path: `/users/${encodeURIComponent(userId)}`, body: userUpdateToWire(update), session: null });
      return asServerUser(wire);
    },

    async deleteUser(userId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/users/${encodeURIComponent(userId)}`, session: null });
    },

    /** A new session for any user (e.g. to act as them); a year unless `expiresInMillis` says otherwise. */
    async createSession(input: { userId: string; expiresInMillis?: number; isImpersonation?: boolean }): Promise<{ accessToken: string; refreshToken: string }> {
      const response = await ctx.call<SessionCreateResponse>({
        method: "POST",
        path: "/auth/sessions",
        session: null,
        body: {
          user_id: input.userId,
          ...(input.expiresInMillis === undefined ? {} : { expires_in_millis: input.expiresInMillis }),
          ...(input.isImpersonation === undefined ? {} : { is_impersonation: input.isImpersonation }),
        },
      });
      return { accessToken: response.access_token, refreshToken: response.refresh_token };
    },
  };
}
