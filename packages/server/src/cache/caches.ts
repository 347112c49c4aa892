import type { Selectable } from "kysely";
import type { ChangeFeed } from "../db/change-feed.js";
import type { ApiKeySetsTable } from "../db/schema.js";
import type { ProjectRow, SessionRow, UserRecord } from "../db/rows.js";
import { InvalidatingCache } from "./invalidating-cache.js";

/**
 * What the request pipeline reads on every request, cached per process: the project with its key sets
 * (checked for each key header) and the signed-in user's record (behind `/users/me` and every refresh).
 * They are dropped on the change notifications of migration 0008: `project:<id>` (the project or one of
 * its key sets), `user:<id>` (the user or one of its contact channels), `team:<id>` (a team, shown as a
 * user's selected team), `session:<refresh token hash>` (a session).
 */
export interface Caches {
  projects: InvalidatingCache<ProjectWithKeys>;
  /** Keyed by user id (UUIDs are unique across projects; readers check the project). */
  users: InvalidatingCache<UserRecord>;
  /** Keyed by `sessionCacheKeyOfHex(refresh token hash)`: what a refresh looks up. */
  sessions: InvalidatingCache<SessionRow>;
}

/**
 * The cache key of a session: its refresh token hash as PostgreSQL writes a bytea in JSON (`\\x…`), from the hash's
 * hex (a refresh hashes its token straight to hex: no bytes, no copy).
 */
export function sessionCacheKeyOfHex(refreshTokenHashHex: string): string {
  return `\\x${refreshTokenHashHex}`;
}

export type KeySetHashes = Pick<
  Selectable<ApiKeySetsTable>,
  "publishable_client_key_hash" | "secret_server_key_hash" | "super_secret_admin_key_hash" | "expires_at" | "manually_revoked_at"
>;

export interface ProjectWithKeys {
  project: ProjectRow;
  keySets: KeySetHashes[];
}

// A minute bounds how long an entry could outlive a notification lost without the connection dropping
// (which PostgreSQL does not do); the sizes bound memory at a few tens of MB of rows.
const TTL_MS = 60_000;

export function createCaches(feed: ChangeFeed): Caches {
  const caches: Caches = {
    projects: new InvalidatingCache<ProjectWithKeys>(feed, { maxEntries: 1_000, ttlMs: TTL_MS }),
    users: new InvalidatingCache<UserRecord>(feed, { maxEntries: 50_000, ttlMs: TTL_MS }),
    sessions: new InvalidatingCache<SessionRow>(feed, { maxEntries: 50_000, ttlMs: TTL_MS }),
  };
  feed.subscribe((event) => {
    if (event.type === "reset") {
      caches.projects.clear();
      caches.users.clear();
      caches.sessions.clear();
    } else if (event.kind === "project") {
      caches.projects.invalidate(event.id);
    } else if (event.kind === "user") {
      caches.users.invalidate(event.id);
    } else if (event.kind === "session") {
      caches.sessions.invalidate(event.id);
    } else if (event.kind === "team") {
      caches.users.invalidateWhere((record) => record.user.selected_team_id === event.id);
    }
  });
  return caches;
}
