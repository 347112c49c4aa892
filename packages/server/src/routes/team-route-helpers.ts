import { KnownErrors } from "@latchkey/protocol/errors";
import type { RequestAuth } from "../http/context.js";
import type { TeamActor } from "../services/team-access.js";

/** What the team routes share: who acts, and the protocol's `me` in a user id. */

export function teamActor(auth: RequestAuth): TeamActor {
  return { type: auth.type, userId: auth.user?.id ?? null };
}

/** A user id from a path, query or body: `me` is the signed-in user (SPEC.md §5), anything else a UUID. */
export function resolveUserId(auth: RequestAuth, userId: string): string {
  if (userId !== "me") return userId.toLowerCase();
  if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return auth.user.id;
}
