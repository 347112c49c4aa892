import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../db/schema.js";
import { cachedGraph, rememberGraph, type PermissionGraph } from "./permission-graph.js";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The project's permission graph. The version check is one indexed read of the project row (the md5 of
 * its config override); the override itself is read and compiled only when it changed.
 */
export async function loadPermissionGraph(db: Executor, projectId: string): Promise<PermissionGraph> {
  const row = await db
    .selectFrom("projects")
    .select(sql<string>`md5(config_override::text)`.as("version"))
    .where("id", "=", projectId)
    .executeTakeFirst();
  const version = row?.version ?? "";
  const cached = cachedGraph(projectId, version);
  if (cached) return cached;
  // Read again with its own version, so a graph is never remembered under another config's version.
  const full = await db
    .selectFrom("projects")
    .select(["config_override", sql<string>`md5(config_override::text)`.as("version")])
    .where("id", "=", projectId)
    .executeTakeFirst();
  return rememberGraph(projectId, full?.version ?? "", full?.config_override ?? {});
}
