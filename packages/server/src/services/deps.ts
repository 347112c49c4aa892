import type { Logger } from "pino";
import type { Caches } from "../cache/caches.js";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import type { ProjectRow, UserRecord, UserRow } from "../db/rows.js";
import type { Env } from "../env.js";

/**
 * What services are given: the process's shared parts, and who is calling. Defined here, below the HTTP
 * layer, so that services never import from `http/`; the request pipeline fills these in.
 */
export interface AppDeps {
  db: Db;
  env: Env;
  log: Logger;
  caches: Caches;
  changes: ChangeFeed;
}

export type AccessType = "client" | "server" | "admin";

/** The caller the x-stack-* headers resolved to. */
export interface RequestAuth {
  type: AccessType;
  project: ProjectRow;
  branchId: string;
  /** The signed-in user of a valid access token, or null (no token, or its user was deleted). */
  user: UserRow | null;
  /** The same user with what its read shapes need (primary email, selected team). */
  userRecord: UserRecord | null;
  /** The session (refresh token id) the access token was issued for. */
  refreshTokenId: string | null;
}
