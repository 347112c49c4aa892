import { describe, it, expect } from "vitest";
import { KnownErrors as Ref } from "@stackframe/stack-shared/dist/known-errors";
import { KnownError, KnownErrors, knownErrorClassByCode, knownErrorFromJson } from "../src/errors/index.js";

// The reference (Stack Auth's own catalogue) and ours, seen through the few members the comparison needs.
interface RefError {
  statusCode: number;
  errorCode: string;
  message: string;
  name: string;
  details?: unknown;
  toDescriptiveJson(): unknown;
}
interface RefClass {
  new (...args: unknown[]): RefError;
  errorCode: string;
  isInstance(error: unknown): boolean;
}
type OurClass = (new (...args: unknown[]) => KnownError) & { code: string; status: number };

type Name = keyof typeof Ref;
const refClasses = Ref as unknown as Record<Name, RefClass>;
const ourClasses = KnownErrors as unknown as Record<Name, OurClass>;
const names = Object.keys(Ref).sort() as Name[];
/** Errors only the newer protocol (2.8.108) has, compared with its catalogue in dialects.test.ts. */
const NEWER_NAMES = [
  "PublishableClientKeyRequiredForProject", "RestrictedUserNotAllowed", "TeamInvitationRestrictedUserNotAllowed", "TeamInvitationEmailMismatch",
  "ProductDoesNotExist", "ProductCustomerTypeDoesNotMatch",
];

const family = (): unknown[][] => [
  [401, "A family error built directly.", { reason: "sample", nested: { list: [1, "two"] } }],
  [400, "A family error without details."],
];
const none = (): unknown[][] => [[]];
const expiredAt = new Date("2024-05-06T07:08:09.010Z");

/** Constructor arguments to build each error with; several lists where an argument changes the message. */
const samples: Record<Name, unknown[][]> = {
  UnsupportedError: [["SOME_ERROR_FROM_THE_FUTURE"]],
  BodyParsingError: [["Unexpected token } in JSON at position 12"]],
  SchemaError: [["Request validation failed on POST /api/v1/users:\n  - body.primary_email must be a valid email"]],
  AllOverloadsFailed: [
    [[{ code: "SCHEMA_ERROR", error: "first\nsecond", details: { message: "x" } }, "plain text", null, [1, [2, 3]]]],
    [[{ single: true }]],
    [[]],
  ],
  ProjectAuthenticationError: family(),
  InvalidProjectAuthentication: family(),
  ProjectKeyWithoutAccessType: none(),
  InvalidAccessType: [["superuser"]],
  AccessTypeWithoutProjectId: [["client"], ["ad\nmin"]],
  AccessTypeRequired: none(),
  InsufficientAccessType: [["client", ["server", "admin"]], ["server", ["admin"]], ["client", []]],
  InvalidPublishableClientKey: [["proj-1"], ['with "quotes"']],
  InvalidSecretServerKey: [["proj-1"]],
  InvalidSuperSecretAdminKey: [["proj-1"]],
  InvalidAdminAccessToken: family(),
  UnparsableAdminAccessToken: none(),
  AdminAccessTokenExpired: [[expiredAt], [undefined], []],
  InvalidProjectForAdminAccessToken: none(),
  AdminAccessTokenIsNotAdmin: none(),
  ProjectAuthenticationRequired: family(),
  ClientAuthenticationRequired: none(),
  ServerAuthenticationRequired: none(),
  ClientOrServerAuthenticationRequired: none(),
  ClientOrAdminAuthenticationRequired: none(),
  ClientOrServerOrAdminAuthenticationRequired: none(),
  AdminAuthenticationRequired: none(),
  ExpectedInternalProject: none(),
  SessionAuthenticationError: family(),
  InvalidSessionAuthentication: family(),
  InvalidAccessToken: family(),
  UnparsableAccessToken: none(),
  AccessTokenExpired: [[expiredAt], [new Date(0)], [undefined]],
  InvalidProjectForAccessToken: [["internal", "proj-2"]],
  RefreshTokenError: family(),
  RefreshTokenNotFoundOrExpired: none(),
  CannotDeleteCurrentSession: none(),
  ProviderRejected: none(),
  UserWithEmailAlreadyExists: [["ada@example.com"], ["ada@example.com", true], ["ada@example.com", false]],
  EmailNotVerified: none(),
  CannotGetOwnUserWithoutUser: none(),
  UserIdDoesNotExist: [["user-1"]],
  UserNotFound: none(),
  ApiKeyNotFound: none(),
  PublicApiKeyCannotBeRevoked: none(),
  ProjectNotFound: [["proj-1"]],
  CurrentProjectNotFound: [["proj-1"]],
  BranchDoesNotExist: [["main"]],
  SignUpNotEnabled: none(),
  PasswordAuthenticationNotEnabled: none(),
  PasskeyAuthenticationNotEnabled: none(),
  AnonymousAccountsNotEnabled: none(),
  AnonymousAuthenticationNotAllowed: none(),
  EmailPasswordMismatch: none(),
  RedirectUrlNotWhitelisted: none(),
  PasswordRequirementsNotMet: family(),
  PasswordTooShort: [[8]],
  PasswordTooLong: [[70]],
  UserDoesNotHavePassword: none(),
  VerificationCodeError: family(),
  VerificationCodeNotFound: none(),
  VerificationCodeExpired: none(),
  VerificationCodeAlreadyUsed: none(),
  VerificationCodeMaxAttemptsReached: none(),
  PasswordConfirmationMismatch: none(),
  EmailAlreadyVerified: none(),
  EmailNotAssociatedWithUser: none(),
  EmailIsNotPrimaryEmail: [["ada@example.com", "primary@example.com"], ["ada@example.com", null]],
  PasskeyRegistrationFailed: [["The registration response could not be verified."]],
  PasskeyWebAuthnError: [["The ceremony was aborted.", "ERROR_CEREMONY_ABORTED"]],
  PasskeyAuthenticationFailed: [["The passkey was not recognised."]],
  PermissionNotFound: [["read_secrets"]],
  PermissionScopeMismatch: [["read_secrets", "team", "project"], ["read_secrets", "project", null]],
  ContainedPermissionNotFound: [["read_secrets"]],
  TeamNotFound: [["team-1"]],
  TeamMembershipNotFound: [["team-1", "user-1"]],
  EmailTemplateAlreadyExists: none(),
  OAuthConnectionNotConnectedToUser: none(),
  OAuthConnectionAlreadyConnectedToAnotherUser: none(),
  OAuthConnectionDoesNotHaveRequiredScope: none(),
  OAuthExtraScopeNotAvailableWithSharedOAuthKeys: none(),
  OAuthAccessTokenNotAvailableWithSharedOAuthKeys: none(),
  InvalidOAuthClientIdOrSecret: [["proj-1#main"], [undefined], []],
  InvalidScope: [["openid email"]],
  UserAlreadyConnectedToAnotherOAuthConnection: none(),
  OuterOAuthTimeout: none(),
  OAuthProviderNotFoundOrNotEnabled: none(),
  OAuthProviderAccountIdAlreadyUsedForSignIn: none(),
  MultiFactorAuthenticationRequired: [["attempt-code-1"]],
  InvalidTotpCode: none(),
  UserAuthenticationRequired: none(),
  TeamMembershipAlreadyExists: none(),
  ProjectPermissionRequired: [["user-1", "$read_members"]],
  TeamPermissionRequired: [["team-1", "user-1", "$invite_members"]],
  InvalidSharedOAuthProviderId: [["github"]],
  InvalidStandardOAuthProviderId: [["gitlab"]],
  InvalidAuthorizationCode: none(),
  TeamPermissionNotFound: [["team-1", "user-1", "$invite_members"]],
  OAuthProviderAccessDenied: none(),
  ContactChannelAlreadyUsedForAuthBySomeoneElse: [
    ["email"],
    ["email", "ada@example.com"],
    ["email", "ada@example.com", true],
    ["email", undefined, true],
  ],
  InvalidPollingCodeError: [[], [{ reason: "expired", polling_code: "abc" }]],
  CliAuthError: [["The CLI sign-in was cancelled."]],
  CliAuthExpiredError: [[], [undefined], ["A custom expiry message."]],
  CliAuthUsedError: [[], ["A custom message."]],
  ApiKeyNotValid: family(),
  ApiKeyExpired: none(),
  ApiKeyRevoked: none(),
  WrongApiKeyType: [["user", "team"]],
  PermissionIdAlreadyExists: [["team_admin"]],
  EmailRenderingError: [["SyntaxError: Unexpected token '<'"]],
  RequiresCustomEmailServer: none(),
  ItemNotFound: [["credits"]],
  ItemCustomerTypeDoesNotMatch: [["credits", "team-1", "user", "team"], ["credits", "team-1", undefined, "team"]],
  CustomerDoesNotExist: [["customer-1"]],
  OfferDoesNotExist: [["pro-plan", "client"], ["pro-plan", "server"], ["pro-plan", "admin"]],
  OfferCustomerTypeDoesNotMatch: [["pro-plan", "user-1", "team", "user"], [undefined, "user-1", undefined, "custom"]],
  ItemQuantityInsufficientAmount: [["credits", "user-1", 5]],
  StripeAccountInfoNotFound: none(),
  DataVaultStoreDoesNotExist: [["store-1"]],
  DataVaultStoreHashedKeyDoesNotExist: [["store-1", "c2hhMjU2"]],
  WorkflowTokenDoesNotExist: none(),
  WorkflowTokenExpired: none(),
};

const cases = names.flatMap((name) => samples[name].map((args) => ({ name, args, label: `${name}(${describeArgs(args)})` })));

function describeArgs(args: unknown[]): string {
  return args.map((arg) => (arg instanceof Date ? `Date(${arg.toISOString()})` : (JSON.stringify(arg) ?? "undefined"))).join(", ");
}

function build(name: Name, args: unknown[]): { ours: KnownError; ref: RefError } {
  return { ours: new ourClasses[name](...args), ref: new refClasses[name](...args) };
}

describe("the known-error catalogue", () => {
  it("declares the same 121 errors under the same names as Stack Auth's, and the 2.8.108 ones the server raises", () => {
    expect(names).toHaveLength(121);
    expect(Object.keys(KnownErrors).sort()).toEqual([...names, ...NEWER_NAMES].sort());
  });

  it("gives every error the same code as Stack Auth's, and finds the class again by that code", () => {
    for (const name of names) {
      expect(ourClasses[name].code, name).toBe(refClasses[name].errorCode);
      expect(knownErrorClassByCode(refClasses[name].errorCode), name).toBe(ourClasses[name]);
    }
    expect(new Set(names.map((name) => ourClasses[name].code)).size).toBe(121);
  });

  it("has sample arguments for every error", () => {
    for (const name of names) expect(samples[name].length, name).toBeGreaterThan(0);
  });

  for (const { name, args, label } of cases) {
    it(`builds ${label} with Stack Auth's status, code, message and details`, () => {
      const { ours, ref } = build(name, args);
      expect(ours.statusCode).toBe(ref.statusCode);
      expect(ours.code).toBe(ref.errorCode);
      expect(ours.message).toBe(ref.message);
      expect(ours.name).toBe(ref.name);
      expect(JSON.stringify(ours.details)).toBe(JSON.stringify(ref.details));
      expect(JSON.stringify(ours.toJSON())).toBe(JSON.stringify(ref.toDescriptiveJson()));
    });
  }

  it.each(names)("puts %s in the same families as Stack Auth does", (name) => {
    const { ours, ref } = build(name, samples[name][0] ?? []);
    const refFamilies = names.filter((other) => refClasses[other].isInstance(ref));
    const ourFamilies = names.filter((other) => ours instanceof ourClasses[other]);
    expect(ourFamilies).toEqual(refFamilies);
    expect(ours).toBeInstanceOf(KnownError);
    expect(ours).toBeInstanceOf(Error);
  });

  it("refuses to build the errors Stack Auth refuses to build", () => {
    expect(() => new KnownErrors.SchemaError("")).toThrow();
    expect(() => new (KnownErrors.ProjectNotFound as unknown as OurClass)(42)).toThrow();
  });
});

describe("knownErrorFromJson", () => {
  for (const { name, args, label } of cases) {
    it(`rebuilds ${label} from its response body as the same class, in the same families`, () => {
      const { ours } = build(name, args);
      const body = JSON.parse(JSON.stringify(ours.toJSON())) as { code: string; error: string; details?: unknown };
      const rebuilt = knownErrorFromJson(body, ours.statusCode);
      expect(rebuilt.constructor).toBe(ourClasses[name]);
      expect(names.filter((other) => rebuilt instanceof ourClasses[other])).toEqual(
        names.filter((other) => ours instanceof ourClasses[other]),
      );
      expect(rebuilt.code).toBe(ours.code);
      expect(rebuilt.statusCode).toBe(ours.statusCode);
      expect(rebuilt.message).toBe(ours.message);
      expect(rebuilt.name).toBe(ours.name);
      expect(JSON.stringify(rebuilt.toJSON())).toBe(JSON.stringify(ours.toJSON()));
    });
  }

  it("keeps the body's message, status and details verbatim instead of building them again", () => {
    const body = { code: "TEAM_NOT_FOUND", error: "Wording from a newer server.", details: { team_id: "team-9", hint: ["x"] } };
    const error = knownErrorFromJson(body, 404);
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(error.message).toBe("Wording from a newer server.");
    expect(error.statusCode).toBe(404);
    expect(error.details).toEqual({ team_id: "team-9", hint: ["x"] });
    expect(error.toJSON()).toEqual(body);
    if (!(error instanceof KnownErrors.TeamNotFound)) throw new Error("expected a TeamNotFound");
    const teamId: string = error.details.team_id;
    expect(teamId).toBe("team-9");
  });

  it("rebuilds a family's code as the family itself, so catching the family still works", () => {
    const error = knownErrorFromJson({ code: "INVALID_ACCESS_TOKEN", error: "Some access token problem." }, 401);
    expect(error.constructor).toBe(KnownErrors.InvalidAccessToken);
    expect(error).toBeInstanceOf(KnownErrors.InvalidSessionAuthentication);
    expect(error).toBeInstanceOf(KnownErrors.SessionAuthenticationError);
    expect(error).not.toBeInstanceOf(KnownErrors.UnparsableAccessToken);
    expect(error.details).toBeUndefined();
    expect(error.toJSON()).toEqual({ code: "INVALID_ACCESS_TOKEN", error: "Some access token problem." });
  });

  it("turns a code it does not know into a generic known error that keeps the body's code", () => {
    const body = { code: "SOME_ERROR_FROM_THE_FUTURE", details: { a: 1 }, error: "Something new went wrong." };
    const error = knownErrorFromJson(body, 418);
    expect(error.constructor).toBe(KnownError);
    expect(error).toBeInstanceOf(Error);
    expect(names.filter((name) => error instanceof ourClasses[name])).toEqual([]);
    expect(error.code).toBe("SOME_ERROR_FROM_THE_FUTURE");
    expect(error.name).toBe("KnownError<SOME_ERROR_FROM_THE_FUTURE>");
    expect(error.statusCode).toBe(418);
    expect(error.message).toBe("Something new went wrong.");
    expect(JSON.stringify(error.toJSON())).toBe(JSON.stringify(body));
  });

  it("leaves the code of other errors alone after rebuilding an unknown one", () => {
    knownErrorFromJson({ code: "SOME_ERROR_FROM_THE_FUTURE", error: "New." }, 400);
    expect(new KnownError(400, "Plain.").code).toBe("KNOWN_ERROR");
    expect(new KnownErrors.UserNotFound().code).toBe("USER_NOT_FOUND");
  });
});
