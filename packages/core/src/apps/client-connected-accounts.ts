import type { OAuthProviderClientRead } from "@latchkey/protocol/schemas";
import { oauthConnectionFromWire, type OAuthConnection } from "../wire/oauth-providers.js";
import type { AppContext } from "./app-context.js";

export type { OAuthConnection };

/** A linked account that hands out the provider's access tokens (`getConnectedAccount`). */
export interface ConnectedAccount {
  providerId: string;
  /** A provider access token with the scopes asked for (fresh: refreshed by the server when needed). */
  getAccessToken(): Promise<string>;
}

/** The signed-in user's linked provider accounts (kept apart from sign-in: the sign-in bundle leaves them out). */
export interface ClientConnectedAccountActions {
  listOAuthProviders(): Promise<OAuthConnection[]>;
  updateOAuthProvider(id: string, update: { allowSignIn?: boolean; allowConnectedAccounts?: boolean }): Promise<OAuthConnection>;
  deleteOAuthProvider(id: string): Promise<void>;
  getConnectedAccount(provider: string, options?: { scopes?: string[]; or?: "redirect" | "return-null" }): Promise<ConnectedAccount | null>;
}

/** `link` goes to the provider to link an account with these scopes (space-separated), then back to this page. */
export function clientConnectedAccountActions(ctx: AppContext, onUserChange: () => Promise<void>, link: (provider: string, scope: string) => Promise<void>): ClientConnectedAccountActions {
  return {
    /** The signed-in user's linked provider accounts. */
    async listOAuthProviders(): Promise<OAuthConnection[]> {
      const list = await ctx.call<{ items: OAuthProviderClientRead[] }>({ method: "GET", path: "/oauth-providers?user_id=me" });
      return list.items.map(oauthConnectionFromWire);
    },

    /** Whether a link signs in, and whether it hands out access tokens. */
    async updateOAuthProvider(id: string, update: { allowSignIn?: boolean; allowConnectedAccounts?: boolean }): Promise<OAuthConnection> {
      const read = await ctx.call<OAuthProviderClientRead>({
        method: "PATCH",
        path: `/oauth-providers/me/${encodeURIComponent(id)}`,
        body: { allow_sign_in: update.allowSignIn, allow_connected_accounts: update.allowConnectedAccounts },
      });
      await onUserChange();
      return oauthConnectionFromWire(read);
    },

    /** Unlinks a provider account. */
    async deleteOAuthProvider(id: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/oauth-providers/me/${encodeURIComponent(id)}` });
      await onUserChange();
    },

    /**
     * The user's account at a provider, for calling the provider's API: null when none is linked or it lacks the
     * scopes, or with `or: "redirect"` a redirect to link it (with those scopes) instead.
     */
    async getConnectedAccount(provider: string, options: { scopes?: string[]; or?: "redirect" | "return-null" } = {}): Promise<ConnectedAccount | null> {
      const scope = options.scopes?.join(" ") ?? "";
      const fetchToken = async () => (await ctx.call<{ access_token: string }>({ method: "POST", path: `/connected-accounts/me/${encodeURIComponent(provider)}/access-token`, body: { scope } })).access_token;
      try {
        await fetchToken();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE" && code !== "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER") throw error;
        if (options.or === "redirect") {
          await link(provider, scope);
          return new Promise<never>(() => {});
        }
        return null;
      }
      return { providerId: provider, getAccessToken: fetchToken };
    },
  };
}
