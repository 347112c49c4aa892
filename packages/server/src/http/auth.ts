import type { Context, MiddlewareHandler } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import { isKeyAllowedInThisMode } from "../env.js";
import { findProjectCheckingKey, type KeyKind } from "../services/api-keys.js";
import { countUnlessBlocked, secondsBlocked, tooManyAttempts, type ThrottleSubject } from "../services/auth-throttle.js";
import { verifyAccessToken } from "../crypto/access-tokens.js";
import { adminAccessTokenOwner, readAdminAccessToken } from "../services/project-ownership.js";
import { INTERNAL_PROJECT_ID } from "../services/projects.js";
import { findCachedUserRecord } from "../services/user-read.js";
import { restrictedReasonOf, restrictionPolicy } from "../services/user-restrictions.js";
import { countedClientIp } from "./client-ip.js";
import type { AccessType, AppEnv, RequestAuth } from "./context.js";
import { protocolHeader } from "./dialect.js";
import { PUBLIC_CLIENT_SECRET, PUBLISHABLE_KEY_OPTIONAL, type Dialect } from "@latchkey/protocol/dialects";
import { renderProjectConfig, requiresPublishableClientKey, type ConfigObject } from "../config/project-config.js";
import type { ProjectRow } from "../db/rows.js";

const ACCESS_TYPES: readonly AccessType[] = ["client", "server", "admin"];
const DEFAULT_BRANCH_ID = "main";

/**
 * Resolves the protocol headers (x-stack-* or x-hexclave-*) into the caller's access, in the protocol's order, so the first problem
 * reported is the one a Stack client expects: keys without an access type, an invalid access type, a
 * missing project id, an unknown project or branch, then the key the access type needs.
 */
export function resolveAuth(): MiddlewareHandler<AppEnv> {
  return async function resolveAuth(c, next) {
    c.set("auth", await authenticate(c));
    await next();
  };
}

/** The caller of an API request, as `resolveAuth` sets it (app.ts runs it within its one middleware for API routes). */
export async function authenticate(c: Context<AppEnv>): Promise<RequestAuth | null> {
  const { db, env, caches } = c.get("deps");
  // Headers under the request's prefix (x-stack- or x-hexclave-); an empty value counts as not sent (the
  // 2.8.108 SDK sends an empty secret key header when its app has none).
  const header = (name: string) => protocolHeader(c, name);
  const projectId = header("project-id");
  const branchId = header("branch-id") ?? DEFAULT_BRANCH_ID;
  const accessType = header("access-type");
  // 2.8.108's public sentinel in place of a key says "no key", in either version: the server's own hosted
  // pages (routes/hosted-handler-pages.ts) have no key to send, and say so with it.
  const sentKey = header("publishable-client-key");
  const saysKeyless = sentKey === PUBLIC_CLIENT_SECRET;
  const publishableClientKey = saysKeyless ? undefined : sentKey;
  const secretServerKey = header("secret-server-key");
  const superSecretAdminKey = header("super-secret-admin-key");
  const adminAccessToken = header("admin-access-token");
  const accessToken = header("access-token");
  const allowAnonymousUser = header("allow-anonymous-user") === "true";
  // Restricted users (2.8.108) pass with allow-restricted-user, or with allow-anonymous-user, which its SDK
  // sends on every call and which upstream reads as "anonymous users implicitly include restricted users".
  const allowRestrictedUser = allowAnonymousUser || header("allow-restricted-user") === "true";

  if (!accessType) {
    if (sentKey || secretServerKey || superSecretAdminKey || adminAccessToken) throw new KnownErrors.ProjectKeyWithoutAccessType();
    return null;
  }
  if (!isAccessType(accessType)) throw new KnownErrors.InvalidAccessType(accessType);
  if (!projectId) throw new KnownErrors.AccessTypeWithoutProjectId(accessType);

  // The access token is checked before the project is looked up, as the protocol orders its errors.
  const claims = accessToken ? await verifyAccessToken(env, accessToken, { allowAnonymous: allowAnonymousUser }) : undefined;
  // So is an admin access token itself; whether its user owns the project is asked once the project exists
  // (an owner's token for a deleted project is CURRENT_PROJECT_NOT_FOUND, as in the protocol).
  const adminTokenClaims = adminAccessToken ? await readAdminAccessToken(env, adminAccessToken) : undefined;
  if (claims && (claims.project_id !== projectId || claims.branch_id !== branchId)) {
    // The protocol's client sends the owner's own internal session along with their admin access token
    // (e.g. to transfer the project); it is nobody in this project, but not an error.
    const ownersSession = adminTokenClaims !== undefined && claims.project_id === INTERNAL_PROJECT_ID && claims.sub === adminTokenClaims.sub;
    if (!ownersSession) throw new KnownErrors.InvalidProjectForAccessToken(projectId, claims.project_id);
  }

  // The signed-in user is read while the project and keys are checked (it is only used once they pass).
  const userLookup = claims ? findCachedUserRecord(db, caches, projectId.toLowerCase(), claims.sub) : Promise.resolve(undefined);
  userLookup.catch(() => {}); // an early throw below must not leave this rejection unhandled

  // The one key this access type needs is checked in the same query that finds the project.
  const keyToCheck: { kind: KeyKind; key: string | undefined } = {
    client: { kind: "publishableClientKey" as const, key: publishableClientKey },
    server: { kind: "secretServerKey" as const, key: secretServerKey },
    admin: { kind: "superSecretAdminKey" as const, key: superSecretAdminKey },
  }[accessType];
  // Secret keys are guessed per client address (services/auth-throttle.ts). Whether the address is blocked is
  // read alongside the key check and decides before the key's validity is told, so that a blocked guesser
  // learns nothing, not even from a right guess.
  const secretKeyAttempt: ThrottleSubject | undefined =
    accessType !== "client" && keyToCheck.key ? { kind: "api_key", projectId: projectId.toLowerCase(), clientIp: countedClientIp(c) } : undefined;
  const [found, blockedSeconds] = await Promise.all([
    findProjectCheckingKey(db, caches, projectId, keyToCheck.key ? { kind: keyToCheck.kind, key: keyToCheck.key } : undefined),
    secretKeyAttempt ? secondsBlocked(db, secretKeyAttempt) : 0,
  ]);
  if (!found) throw new KnownErrors.CurrentProjectNotFound(projectId);
  if (blockedSeconds > 0) throw tooManyAttempts(blockedSeconds);
  const { project } = found;
  if (branchId !== DEFAULT_BRANCH_ID) throw new KnownErrors.BranchDoesNotExist(branchId);
  const projectOwner = adminTokenClaims ? await adminAccessTokenOwner(db, adminTokenClaims, projectId) : undefined;

  const keyWorks = (key: string) => isKeyAllowedInThisMode(env, key) && found.keyValid;
  if (secretKeyAttempt && !keyWorks(keyToCheck.key!)) {
    // A wrong key is counted and checked against the limit in one step: of parallel guesses past the threshold,
    // every one is refused, whichever process answers it (the read above saw none of them).
    const seconds = await countUnlessBlocked(db, secretKeyAttempt);
    if (seconds > 0) throw tooManyAttempts(seconds);
  }

  switch (accessType) {
    case "client":
      // An owner's admin access token stands for every key of the project: the protocol's admin app for an
      // owned project has no keys and sends its client and server calls (e.g. refreshing `/projects/current`
      // after an update, listing users) with the token alone.
      if (!publishableClientKey && projectOwner) break;
      if (!publishableClientKey) {
        if (keylessClientAllowed(saysKeyless ? "2.8.108" : c.get("dialect"), project)) break;
        // CLIENT_AUTHENTICATION_REQUIRED for 2.8.41 (protocol/src/dialects.ts translates it).
        throw new KnownErrors.PublishableClientKeyRequiredForProject(projectId);
      }
      if (!keyWorks(publishableClientKey)) throw new KnownErrors.InvalidPublishableClientKey(projectId);
      break;
    case "server":
      if (!secretServerKey && projectOwner) break;
      if (!secretServerKey) throw new KnownErrors.ServerAuthenticationRequired();
      if (!keyWorks(secretServerKey)) throw new KnownErrors.InvalidSecretServerKey(projectId);
      break;
    case "admin":
      if (!superSecretAdminKey && !adminAccessToken) throw new KnownErrors.AdminAuthenticationRequired();
      if (superSecretAdminKey && !keyWorks(superSecretAdminKey)) throw new KnownErrors.InvalidSuperSecretAdminKey(projectId);
      // An admin access token was accepted above; a key sent with it must be valid too, as any credential sent.
      break;
  }
  // A deleted user's still-unexpired token authenticates nobody.
  const userRecord = (await userLookup) ?? null;
  if (userRecord && !allowRestrictedUser) {
    // Judged on the user's present state, not the token's claims: verifying an email lets the user in at once.
    const reason = restrictedReasonOf(userRecord.user, userRecord.primaryEmail, restrictionPolicy(project));
    // Anonymous users were already let through (or not) by their token's audience and allow-anonymous-user.
    if (reason && reason.type !== "anonymous") throw new KnownErrors.RestrictedUserNotAllowed(reason);
  }
  return { type: accessType, project, branchId, user: userRecord?.user ?? null, userRecord, refreshTokenId: userRecord ? claims!.refresh_token_id : null };
}

/** A client request without a publishable key: allowed in 2.8.108 unless the project requires keys. */
export function keylessClientAllowed(dialect: Dialect, project: ProjectRow): boolean {
  return PUBLISHABLE_KEY_OPTIONAL[dialect] && !requiresPublishableClientKey(renderProjectConfig(project.config_override as ConfigObject));
}

function isAccessType(value: string): value is AccessType {
  return (ACCESS_TYPES as readonly string[]).includes(value);
}

/** The route's access rule: which access types may call it. Throws the protocol's error otherwise. */
export function requireAccess(c: Context<AppEnv>, allowed: readonly AccessType[]): RequestAuth {
  const auth = c.get("auth");
  if (!auth) throw new KnownErrors.AccessTypeRequired();
  if (!allowed.includes(auth.type)) throw new KnownErrors.InsufficientAccessType(auth.type, [...allowed]);
  return auth;
}
