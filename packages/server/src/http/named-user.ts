import { KnownErrors } from "@latchkey/protocol/errors";
import type { RequestAuth } from "./context.js";

/**
 * The user a request names in a path or query (`user_id`): `me`, or an id. A client must have a signed-in user
 * and may name only that user; naming another is answered with `refusal()`, the route's own wording of the
 * protocol's 403. Servers may name anyone; `me` (or nothing) is their signed-in user, if any.
 */
export function namedUser(auth: RequestAuth, userId: string | undefined, refusal: () => Error): string {
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    if (userId !== "me" && userId?.toLowerCase() !== auth.user.id) throw refusal();
    return auth.user.id;
  }
  if (userId === "me" || userId === undefined) {
    if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
    return auth.user.id;
  }
  return userId.toLowerCase();
}
