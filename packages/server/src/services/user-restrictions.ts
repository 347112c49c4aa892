import type { UserRestrictedReason } from "@latchkey/protocol/schemas";
import { sql, type Expression, type SqlBool } from "kysely";
import { renderProjectConfig, requiresEmailVerification, type ConfigObject } from "../config/project-config.js";
import type { ContactChannelRow, ProjectRow, UserRow } from "../db/rows.js";

/**
 * Restricted users (the 2.8.108 protocol): signed up, but not yet allowed to use the app — anonymous, held
 * back by an administrator, or (when the project requires it) without a verified primary email. Nothing
 * about it is stored: it is derived on every read from the user, their primary email and the project's
 * config, so an email verified or a setting changed takes effect on the next request and the next token.
 */

/** What a project's config says about restricting users. */
export interface RestrictionPolicy {
  requireEmailVerification: boolean;
}

// Keyed by the stored override object: the project cache hands out the same row (and so the same object)
// until the project changes, so the config is rendered once per change rather than once per request.
const policies = new WeakMap<object, RestrictionPolicy>();

export function restrictionPolicy(project: Pick<ProjectRow, "config_override">): RestrictionPolicy {
  const override = project.config_override;
  const cached = policies.get(override);
  if (cached) return cached;
  const policy = { requireEmailVerification: requiresEmailVerification(renderProjectConfig(override as ConfigObject)) };
  policies.set(override, policy);
  return policy;
}

/**
 * Why the user is restricted, or null. One reason is reported: anonymous first (an anonymous user has
 * nothing else to complete before signing up), then an administrator's restriction (nothing the user can
 * do about it, so it is not hidden behind a step they could complete), then the unverified email — which
 * also covers a user with no primary email at all, as the protocol's onboarding page asks such a user for one.
 */
export function restrictedReasonOf(
  user: Pick<UserRow, "is_anonymous" | "restricted_by_admin">,
  primaryEmail: Pick<ContactChannelRow, "is_verified"> | null,
  policy: RestrictionPolicy,
): UserRestrictedReason | null {
  if (user.is_anonymous) return { type: "anonymous" };
  if (user.restricted_by_admin) return { type: "restricted_by_administrator" };
  if (policy.requireEmailVerification && !primaryEmail?.is_verified) return { type: "email_not_verified" };
  return null;
}

/** The same as SQL over `users` (for lists): whether a non-anonymous user is restricted. */
export function isRestrictedSql(policy: RestrictionPolicy): Expression<SqlBool> {
  if (!policy.requireEmailVerification) return sql<SqlBool>`users.restricted_by_admin`;
  return sql<SqlBool>`(users.restricted_by_admin or not exists (
    select 1 from contact_channels as verified
    where verified.user_id = users.id and verified.type = 'email' and verified.is_primary and verified.is_verified
  ))`;
}
