import type { Logger } from "pino";
import type { Caches } from "../cache/caches.js";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import type { ProjectRow } from "../services/projects.js";
import type { UserRecord } from "../services/user-read.js";
import type { UserRow } from "../services/user-rows.js";

export type AccessType = "client" | "server" | "admin";

/** What the request pipeline resolved from the x-stack-* headers; null when no access type was given. */
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

export interface AppDeps {
  db: Db;
  env: Env;
  log: Logger;
  caches: Caches;
  changes: ChangeFeed;
}

/** Typed Hono context variables, set by the pipeline middleware. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    log: Logger;
    auth: RequestAuth | null;
    /** The parsed request body (JSON object, form fields, text), undefined when there is none. */
    body: unknown;
  };
}
