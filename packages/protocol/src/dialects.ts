import { KnownError, KnownErrors, knownErrorVariant, type CustomerType, type KnownErrorJson } from "./errors/index.js";

/**
 * The two versions of the wire protocol Latchkey answers in (issue 14). Clients of Stack Auth's SDK 2.8.41
 * send `x-stack-*` headers; those of 2.8.108 send the same headers as `x-hexclave-*` and expect a few more
 * fields, claims and error codes. Each request is answered in the version its headers name, chosen once per
 * request by the server's pipeline; everything that differs between the two is declared here or next to
 * the schema field it concerns (`sinceDialect` in schemas/dialect-fields.ts).
 */
export const DIALECTS = ["2.8.41", "2.8.108"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Requests without any protocol header (the token endpoint, public pages) are answered as 2.8.41 was. */
export const DEFAULT_DIALECT: Dialect = "2.8.41";

/** The prefix of the protocol headers a version's clients send: `x-stack-project-id`, `x-hexclave-project-id`. */
export const REQUEST_HEADER_PREFIX: Record<Dialect, string> = { "2.8.41": "x-stack-", "2.8.108": "x-hexclave-" };

/**
 * Prefixes a response's protocol headers (`known-error`, `actual-status`, `request-id`) are sent under.
 * 2.8.108 reads its own name and falls back to the old one; its servers send both, and so do we.
 */
export const RESPONSE_HEADER_PREFIXES: Record<Dialect, readonly string[]> = {
  "2.8.41": ["x-stack-"],
  "2.8.108": ["x-stack-", "x-hexclave-"],
};

/**
 * Known-error codes only one version's catalogue has (compared with both SDKs' catalogues in the tests).
 * A client rebuilds an unknown code as a generic error, so a dialect is never sent the other's codes.
 */
export const CODES_ONLY_IN: Record<Dialect, readonly string[]> = {
  "2.8.41": ["OFFER_DOES_NOT_EXIST", "OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH", "WORKFLOW_TOKEN_DOES_NOT_EXIST", "WORKFLOW_TOKEN_EXPIRED"],
  "2.8.108": [
    "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    "RESTRICTED_USER_NOT_ALLOWED",
    "SIGN_UP_REJECTED",
    "BOT_CHALLENGE_REQUIRED",
    "BOT_CHALLENGE_FAILED",
    "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
    "TEAM_INVITATION_EMAIL_MISMATCH",
    "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE",
    "APPLE_BUNDLE_ID_NOT_CONFIGURED",
    "INVALID_APPLE_CREDENTIALS",
    "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
    "TEMPLATE_SOURCE_REWRITE_ERROR",
    "EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE",
    "EMAIL_NOT_EDITABLE",
    "SUBSCRIPTION_INVOICE_NOT_FOUND",
    "ONE_TIME_PURCHASE_NOT_FOUND",
    "SUBSCRIPTION_ALREADY_REFUNDED",
    "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
    "TEST_MODE_PURCHASE_NON_REFUNDABLE",
    "PRODUCT_DOES_NOT_EXIST",
    "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
    "PRODUCT_ALREADY_GRANTED",
    "ANALYTICS_QUERY_TIMEOUT",
    "ANALYTICS_QUERY_ERROR",
    "ANALYTICS_NOT_ENABLED",
    "DEFAULT_PAYMENT_METHOD_REQUIRED",
    "NEW_PURCHASES_BLOCKED",
  ],
};

/**
 * What a version is sent instead of an error its catalogue lacks: the error of its own catalogue that tells
 * its clients the same thing and the same remedy.
 */
export const ERROR_TRANSLATIONS: Readonly<Record<string, Partial<Record<Dialect, (error: KnownError) => KnownError>>>> = {
  // 2.8.41 has no restricted users; the header that lets them through there is allow-anonymous-user, which
  // this error names.
  RESTRICTED_USER_NOT_ALLOWED: { "2.8.41": () => new KnownErrors.AnonymousAuthenticationNotAllowed() },
  // In 2.8.41 every client request needs a publishable key.
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: { "2.8.41": () => new KnownErrors.ClientAuthenticationRequired() },
  // A restricted user (e.g. anonymous) has to become a full user first: to 2.8.41, which has no restricted
  // users, that is a user's authentication missing.
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: { "2.8.41": () => new KnownErrors.UserAuthenticationRequired() },
  // An invitation addressed to someone else is, for this user, no invitation at all; 2.8.41's clients expect
  // the verification-code errors from invitation flows and handle them.
  TEAM_INVITATION_EMAIL_MISMATCH: { "2.8.41": () => new KnownErrors.VerificationCodeNotFound() },
  // 2.8.108 names offers "products". A client is not told whether a server-only offer exists, so no context.
  OFFER_DOES_NOT_EXIST: { "2.8.108": (error) => new KnownErrors.ProductDoesNotExist(String(error.details?.offer_id ?? ""), null) },
  OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH: {
    "2.8.108": (error) => {
      const d = error.details ?? {};
      return new KnownErrors.ProductCustomerTypeDoesNotMatch(
        (d.offer_id as string | null) ?? undefined,
        String(d.customer_id ?? ""),
        (d.offer_customer_type as CustomerType | null) ?? undefined,
        (d.actual_customer_type as CustomerType) ?? "user",
      );
    },
  },
};

/**
 * Whether a client request may leave out the publishable key. 2.8.41 always needs one; in 2.8.108 keys are
 * optional unless the project requires them (`project.requirePublishableClientKey`), and its SDK then sends
 * no key header and `__stack_public_client__` as the OAuth client secret.
 */
export const PUBLISHABLE_KEY_OPTIONAL: Record<Dialect, boolean> = { "2.8.41": false, "2.8.108": true };

/** The OAuth client secret the 2.8.108 SDK sends when its app has no publishable key. */
export const PUBLIC_CLIENT_SECRET = "__stack_public_client__";

/** Whether a version's SDK knows the code. */
export function isCodeKnownIn(code: string, dialect: Dialect): boolean {
  const other = dialect === "2.8.41" ? "2.8.108" : "2.8.41";
  return !CODES_ONLY_IN[other].includes(code);
}

/** A known error as a version's client reads it: status, code header value and body. */
export interface DialectErrorResponse {
  status: number;
  body: KnownErrorJson;
}

/** The error in the version's catalogue and wording (translated when the version lacks its code). */
export function knownErrorInDialect(error: KnownError, dialect: Dialect): DialectErrorResponse {
  const translated = isCodeKnownIn(error.code, dialect) ? error : (ERROR_TRANSLATIONS[error.code]?.[dialect]?.(error) ?? error);
  if (dialect === "2.8.41") return { status: translated.statusCode, body: translated.toJSON() };
  const { message, details } = knownErrorVariant(translated, dialect);
  return { status: translated.statusCode, body: { code: translated.code, ...(details ? { details } : {}), error: message } };
}
