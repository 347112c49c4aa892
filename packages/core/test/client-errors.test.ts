import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { CANNOT_GET_OWN_USER_WITHOUT_USER, INVALID_ACCESS_TOKEN, INVALID_ADMIN_ACCESS_TOKEN, REFRESH_TOKEN_ERROR, USER_NOT_FOUND } from "../src/http/client-errors.js";

/** Codes of the concrete errors of the catalogue that belong to `family` (not the family itself). */
function membersOf(family: abstract new (...args: never[]) => unknown): string[] {
  return Object.values(KnownErrors)
    .filter((ErrorClass) => ErrorClass !== family && ErrorClass.prototype instanceof family)
    .map((ErrorClass) => ErrorClass.code)
    .sort();
}

describe("the codes the client acts on", () => {
  it("are exactly the members of the catalogue's families", () => {
    expect([...INVALID_ACCESS_TOKEN].sort()).toEqual(membersOf(KnownErrors.InvalidAccessToken));
    expect([...INVALID_ADMIN_ACCESS_TOKEN].sort()).toEqual(membersOf(KnownErrors.InvalidAdminAccessToken));
    expect([...REFRESH_TOKEN_ERROR].sort()).toEqual(membersOf(KnownErrors.RefreshTokenError));
    expect([...CANNOT_GET_OWN_USER_WITHOUT_USER]).toEqual([KnownErrors.CannotGetOwnUserWithoutUser.code]);
    expect([...USER_NOT_FOUND]).toEqual([KnownErrors.UserNotFound.code]);
  });
});
