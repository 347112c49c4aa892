import type { EndUserIpInfo, SessionRead } from "@latchkey/protocol/schemas";

/** One of the signed-in user's sessions (GET /auth/sessions?user_id=me), e.g. a browser they signed in on. */
export interface UserSession {
  id: string;
  createdAt: Date;
  isImpersonation: boolean;
  /** When the session last refreshed its access token; null if the server has not recorded a use. */
  lastUsedAt: Date | null;
  /** Whether this is the session of the app asking (it cannot be revoked; sign out instead). */
  isCurrentSession: boolean;
  /** Where it was last used from; location fields are null when the server does not know them. */
  geoInfo: EndUserIpInfo | null;
  /** The User-Agent of its last use (a Latchkey extension); null when unknown or from a Stack Auth server. */
  userAgent: string | null;
}

export function sessionFromWire(wire: SessionRead): UserSession {
  return {
    id: wire.id,
    createdAt: new Date(wire.created_at),
    isImpersonation: wire.is_impersonation,
    lastUsedAt: wire.last_used_at === undefined ? null : new Date(wire.last_used_at),
    isCurrentSession: wire.is_current_session,
    // The wire's ip info is already camelCase (it is the protocol's own shape), so it passes through.
    geoInfo: wire.last_used_at_end_user_ip_info ?? null,
    userAgent: wire.last_used_at_user_agent ?? null,
  };
}
