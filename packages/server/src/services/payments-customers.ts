import { KnownErrors } from "@latchkey/protocol/errors";
import { HTTPException } from "hono/http-exception";
import type { Db } from "../db/connect.js";
import type { RequestAuth } from "./deps.js";

/**
 * A payments customer (issue 32): a user, a team, or any id the app chose ("custom"). Payments rows name a
 * customer by (project, type, id) without a foreign key, so existence is checked here, where it is needed.
 */
export type CustomerType = "user" | "team" | "custom";
export interface Customer {
  projectId: string;
  customerType: CustomerType;
  customerId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * USER_NOT_FOUND / TEAM_NOT_FOUND when the user or team is not in the project; custom customers always exist.
 * An id that is not a UUID cannot name a user or team (and must not reach a uuid column), so it is not found.
 */
export async function assertCustomerExists(db: Db, customer: Customer): Promise<void> {
  const { projectId, customerType, customerId } = customer;
  if (customerType === "custom") return;
  const table = customerType === "user" ? "users" : "teams";
  const found =
    UUID.test(customerId) &&
    (await db.selectFrom(table).select("id").where("project_id", "=", projectId).where("id", "=", customerId.toLowerCase()).executeTakeFirst());
  if (found) return;
  throw customerType === "user" ? new KnownErrors.UserNotFound() : new KnownErrors.TeamNotFound(customerId);
}

/**
 * A client acts only for its own signed-in user and for teams that user belongs to; servers and admins act for
 * anyone. A client without a user gets USER_AUTHENTICATION_REQUIRED; any other customer a 403 with `message`.
 * `db` comes third (after the agreed `(auth, customer)`): a team's membership is looked up.
 */
export async function assertClientMayActFor(
  auth: Pick<RequestAuth, "type" | "user">,
  customer: Customer,
  db: Db,
  message = "Clients can only access the payments of their own user or of teams they are a member of.",
): Promise<void> {
  if (auth.type !== "client") return;
  const user = auth.user;
  if (!user) throw new KnownErrors.UserAuthenticationRequired();
  const id = customer.customerId.toLowerCase();
  if (customer.customerType === "user" && id === user.id) return;
  if (customer.customerType === "team" && UUID.test(id)) {
    const member = await db
      .selectFrom("team_members")
      .select("user_id")
      .where("project_id", "=", customer.projectId)
      .where("team_id", "=", id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (member) return;
  }
  throw new HTTPException(403, { message });
}
