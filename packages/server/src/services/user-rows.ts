import type { Db } from "../db/connect.js";
import type { UserRow } from "../db/rows.js";

export type { UserRow };

/** A user of the project by id, or undefined (also for ids that are not UUIDs). */
export async function findUserRow(db: Db, projectId: string, userId: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return undefined;
  return db.selectFrom("users").selectAll().where("project_id", "=", projectId).where("id", "=", userId).executeTakeFirst();
}
