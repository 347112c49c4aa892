import { describe, expect, it } from "vitest";
import { KnownErrors as Ref41 } from "@stackframe/stack-shared/dist/known-errors";
import { KnownErrors as Ref108 } from "@stackframe/stack-shared-2.8.108/dist/known-errors";
import { CODES_ONLY_IN, DIALECTS, ERROR_TRANSLATIONS, isCodeKnownIn, knownErrorInDialect } from "../src/dialects.js";
import { KnownErrors } from "../src/errors/index.js";

// Both SDKs' catalogues, seen through the members the comparison needs.
interface RefError {
  statusCode: number;
  message: string;
  toDescriptiveJson(): unknown;
}
type RefClass = (new (...args: unknown[]) => RefError) & { errorCode: string };
const codesOf = (catalogue: object) => new Set(Object.values(catalogue as Record<string, RefClass>).map((ErrorClass) => ErrorClass.errorCode));
const codes41 = codesOf(Ref41);
const codes108 = codesOf(Ref108);
const ref108 = Ref108 as unknown as Record<string, RefClass>;

describe("the two dialects' known errors", () => {
  it("lists as only-in-2.8.41 and only-in-2.8.108 exactly the codes one SDK's catalogue has and the other's lacks", () => {
    expect([...CODES_ONLY_IN["2.8.41"]].sort()).toEqual([...codes41].filter((code) => !codes108.has(code)).sort());
    expect([...CODES_ONLY_IN["2.8.108"]].sort()).toEqual([...codes108].filter((code) => !codes41.has(code)).sort());
  });

  it("has each code of our catalogue known to the SDK of each dialect, or translated into one it knows", () => {
    for (const ErrorClass of Object.values(KnownErrors)) {
      for (const dialect of DIALECTS) {
        const known = (dialect === "2.8.41" ? codes41 : codes108).has(ErrorClass.code);
        expect(known, `${ErrorClass.code} in ${dialect}`).toBe(isCodeKnownIn(ErrorClass.code, dialect));
      }
    }
    for (const [code, byDialect] of Object.entries(ERROR_TRANSLATIONS)) {
      for (const [dialect, translate] of Object.entries(byDialect)) {
        const target = translate(new KnownErrors.UnparsableAccessToken()).code;
        expect((dialect === "2.8.41" ? codes41 : codes108).has(target), `${code} → ${target} in ${dialect}`).toBe(true);
      }
    }
  });

  it("words the 2.8.108-only errors exactly as that SDK's catalogue does", () => {
    const samples: [keyof typeof KnownErrors, unknown[]][] = [
      ["RestrictedUserNotAllowed", [{ type: "email_not_verified" }]],
      ["RestrictedUserNotAllowed", [{ type: "restricted_by_administrator" }]],
      ["PublishableClientKeyRequiredForProject", ["proj-1"]],
      ["PublishableClientKeyRequiredForProject", []],
      ["TeamInvitationRestrictedUserNotAllowed", [{ type: "anonymous" }]],
      ["TeamInvitationRestrictedUserNotAllowed", [{ type: "email_not_verified" }]],
      ["TeamInvitationEmailMismatch", []],
      ["ProductDoesNotExist", ["pro", null]],
      ["ProductDoesNotExist", ["pro", "server_only"]],
      ["ProductDoesNotExist", ["credits", "item_exists"]],
      ["ProductCustomerTypeDoesNotMatch", ["pro", "user-1", "team", "user"]],
      ["ProductCustomerTypeDoesNotMatch", [undefined, "team-1", undefined, "team"]],
    ];
    for (const [name, args] of samples) {
      const ours = new (KnownErrors[name] as unknown as new (...a: unknown[]) => InstanceType<typeof KnownErrors.SchemaError>)(...args);
      const ref = new ref108[name]!(...args);
      expect(ours.statusCode).toBe(ref.statusCode);
      expect(JSON.stringify(knownErrorInDialect(ours, "2.8.108").body)).toBe(JSON.stringify(ref.toDescriptiveJson()));
    }
  });

  it("words ACCESS_TOKEN_EXPIRED in each dialect as its SDK's catalogue does", () => {
    const expiredAt = new Date("2024-05-06T07:08:09.010Z");
    for (const args of [[expiredAt, "proj-1", "user-1", "rt-1"], [expiredAt], [undefined, undefined, "user-1"]] as const) {
      const ours = new KnownErrors.AccessTokenExpired(...(args as [Date]));
      const ref41 = new (Ref41 as unknown as Record<string, RefClass>).AccessTokenExpired!(args[0]);
      const ref = new ref108.AccessTokenExpired!(...args);
      expect(JSON.stringify(knownErrorInDialect(ours, "2.8.41").body)).toBe(JSON.stringify(ref41.toDescriptiveJson()));
      expect(JSON.stringify(knownErrorInDialect(ours, "2.8.108").body)).toBe(JSON.stringify(ref.toDescriptiveJson()));
    }
  });

  it("sends 2.8.108 an offer's refusals under its product names, as its SDK reads them", () => {
    const missing = knownErrorInDialect(new KnownErrors.OfferDoesNotExist("pro", "client"), "2.8.108");
    expect(missing).toEqual({ status: 400, body: new ref108.ProductDoesNotExist!("pro", null).toDescriptiveJson() });
    const mismatch = knownErrorInDialect(new KnownErrors.OfferCustomerTypeDoesNotMatch("pro", "u-1", "team", "user"), "2.8.108");
    expect(mismatch).toEqual({ status: 400, body: new ref108.ProductCustomerTypeDoesNotMatch!("pro", "u-1", "team", "user").toDescriptiveJson() });
    expect(knownErrorInDialect(new KnownErrors.OfferDoesNotExist("pro", "client"), "2.8.41").body.code).toBe("OFFER_DOES_NOT_EXIST");
  });

  it("translates a restricted user's refusal for 2.8.41, which has no restricted users, into the anonymous refusal", () => {
    const { status, body } = knownErrorInDialect(new KnownErrors.RestrictedUserNotAllowed({ type: "anonymous" }), "2.8.41");
    expect(status).toBe(401);
    expect(body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    expect(knownErrorInDialect(new KnownErrors.RestrictedUserNotAllowed({ type: "anonymous" }), "2.8.108").body.code).toBe("RESTRICTED_USER_NOT_ALLOWED");
  });
});
