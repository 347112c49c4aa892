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

export { KnownError, defineKnownError, defineKnownErrorFamily, knownErrorClassByCode, knownErrorFromJson, knownErrorVariant, reviveKnownError } from "./known-error.js";
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
