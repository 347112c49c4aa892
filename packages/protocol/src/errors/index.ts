/**
 * The known-error catalogue: every error of the Stack Auth REST API v1 with its code, bound HTTP status,
 * message and details, declared once (one file per domain) and used by the server to throw and by clients
 * to rebuild typed errors from a response body (STYLE §5).
 */
import * as apiKeys from "./api-keys.js";
import * as cli from "./cli.js";
import * as contactChannels from "./contact-channels.js";
import * as credentials from "./credentials.js";
import * as dataVault from "./data-vault.js";
import * as emails from "./emails.js";
import * as general from "./general.js";
import { KnownError, reviveKnownError } from "./known-error.js";
import type { KnownErrorClass, KnownErrorDetails } from "./known-error.js";
import * as mfa from "./mfa.js";
import * as oauth from "./oauth.js";
import * as passkeys from "./passkeys.js";
import * as payments from "./payments.js";
import * as permissions from "./permissions.js";
import * as projectAuth from "./project-auth.js";
import * as projects from "./projects.js";
import * as session from "./session.js";
import * as teams from "./teams.js";
import * as users from "./users.js";
import * as verification from "./verification.js";
import * as workflows from "./workflows.js";

export { KnownError, defineKnownError, defineKnownErrorFamily, reviveKnownError } from "./known-error.js";
export type { KnownErrorClass, KnownErrorDefinition, KnownErrorDetails, KnownErrorInstance, KnownErrorJson } from "./known-error.js";
export type { AccessType } from "./project-auth.js";
export type { CustomerType } from "./payments.js";
export type { PermissionScope } from "./permissions.js";

/**
 * Every known error by name (the names Stack Auth's SDK uses), including the families that group them.
 * Each domain file exports only error classes, so this object is exactly the catalogue.
 *
 * @example
 * ```ts
 * // server: the status comes with the class
 * throw new KnownErrors.TeamNotFound(teamId);
 * // client: catch a whole family
 * if (error instanceof KnownErrors.InvalidAccessToken) await refreshSession();
 * ```
 */
export const KnownErrors = {
  ...general,
  ...projectAuth,
  ...session,
  ...users,
  ...projects,
  ...credentials,
  ...verification,
  ...contactChannels,
  ...passkeys,
  ...permissions,
  ...teams,
  ...oauth,
  ...mfa,
  ...cli,
  ...apiKeys,
  ...emails,
  ...payments,
  ...dataVault,
  ...workflows,
};

const classesByCode = new Map<string, KnownErrorClass<any, any>>(
  Object.values(KnownErrors).map((ErrorClass): [string, KnownErrorClass<any, any>] => [ErrorClass.code, ErrorClass]),
);

/**
 * The catalogue's class for a wire code, or `undefined` for a code it does not know.
 *
 * @example
 * ```ts
 * knownErrorClassByCode("TEAM_NOT_FOUND") === KnownErrors.TeamNotFound; // true
 * ```
 */
export function knownErrorClassByCode(code: string): KnownErrorClass<any, any> | undefined {
  return classesByCode.get(code);
}

/**
 * Rebuilds the error a response body describes, for clients: an instance of the catalogue's class for the
 * body's code (so `instanceof` works on the class and on its families) whose message, status and details
 * are the body's, verbatim. A code the catalogue does not know (a newer server) gives a plain `KnownError`
 * whose `code` is the body's.
 *
 * @example
 * ```ts
 * const body = await response.json();
 * const error = knownErrorFromJson(body, response.status);
 * if (error instanceof KnownErrors.TeamNotFound) console.log(error.details.team_id);
 * ```
 */
export function knownErrorFromJson(json: { code: string; error: string; details?: unknown }, statusCode: number): KnownError {
  const details = json.details as KnownErrorDetails | undefined;
  const ErrorClass = knownErrorClassByCode(json.code);
  return ErrorClass
    ? reviveKnownError(ErrorClass, statusCode, json.error, details)
    : reviveKnownError(KnownError, statusCode, json.error, details, json.code);
}
