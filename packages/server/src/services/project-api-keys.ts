import { KnownErrors } from "@latchkey/protocol/errors";
import type { ProjectApiKeyCreated, ProjectApiKeyRead } from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import type { Selectable, Updateable } from "kysely";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { createProjectApiKey, parseProjectApiKey, type ApiKeyOwnerType } from "../crypto/project-api-key-format.js";
import { hashesEqual, hashSecret } from "../crypto/secrets.js";
import type { Db } from "../db/connect.js";
import type { ProjectApiKeysTable } from "../db/schema-project-api-keys.js";
import type { RequestAuth } from "./deps.js";
import { hasTeamPermission } from "./team-permission-checks.js";

/**
 * API keys held by a project's users and teams (SPEC.md §7 "API keys"), for apps that let their users call
 * them with a key: created with a description, an optional expiry and `is_public`, shown whole once,
 * revoked by a patch, and checked by the app's server. Only when the project enables that kind of key.
 */

type KeyRow = Selectable<ProjectApiKeysTable>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MANAGE_TEAM_KEYS = "$manage_api_keys";

export interface KeyOwner {
  type: ApiKeyOwnerType;
  /** The user's or team's id as the caller named it (`me` for the signed-in user). */
  id: string;
}

function requireEnabled(auth: RequestAuth, type: ApiKeyOwnerType): void {
  const enabled = renderProjectConfig(auth.project.config_override as ConfigObject).apiKeys.enabled[type];
  // The protocol has no known error for this; it answers with a plain 400.
  if (!enabled) throw new HTTPException(400, { message: `${type === "user" ? "User" : "Team"} API keys are not enabled for this project.` });
}

/**
 * How a client is refused a team's keys: creating answers API_KEY_NOT_FOUND whether or not the client's
 * user is in the team (the protocol's answer), the other operations the membership or permission error.
 */
type RefusedTeam = "notFound" | "permissionErrors";

/**
 * The owner the caller may manage keys of: a server or admin any user or team of the project; a client its
 * own user (anyone else's: the protocol's plain 403), or a team it belongs to holding `$manage_api_keys`.
 * `refusedTeam` is what a client gets for a team it may not manage keys of.
 */
async function resolveOwner(db: Db, auth: RequestAuth, owner: KeyOwner, refusedTeam: RefusedTeam = "permissionErrors"): Promise<string> {
  requireEnabled(auth, owner.type);
  if (owner.type === "user") {
    if (owner.id === "me") {
      if (!auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
      return auth.user.id;
    }
    if (auth.type === "client" && owner.id.toLowerCase() !== auth.user?.id) {
      throw new HTTPException(403, { message: "Client can only manage their own api keys" });
    }
    const user = UUID.test(owner.id) ? await db.selectFrom("users").select("id").where("project_id", "=", auth.project.id).where("id", "=", owner.id.toLowerCase()).executeTakeFirst() : undefined;
    if (!user) throw new KnownErrors.UserNotFound();
    return user.id;
  }
  const teamId = owner.id;
  const team = UUID.test(teamId) ? await db.selectFrom("teams").select("id").where("project_id", "=", auth.project.id).where("id", "=", teamId.toLowerCase()).executeTakeFirst() : undefined;
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    const member = team && (await db.selectFrom("team_members").select("user_id").where("team_id", "=", team.id).where("user_id", "=", auth.user.id).executeTakeFirst());
    const allowed = member && (await hasTeamPermission(db, auth.project.id, team.id, auth.user.id, MANAGE_TEAM_KEYS));
    if (!allowed && refusedTeam === "notFound") throw new KnownErrors.ApiKeyNotFound();
    if (!team || !member) throw new KnownErrors.TeamMembershipNotFound(teamId, auth.user.id);
    if (!allowed) throw new KnownErrors.TeamPermissionRequired(team.id, auth.user.id, MANAGE_TEAM_KEYS);
  }
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team.id;
}

const ownerColumn = (type: ApiKeyOwnerType) => (type === "user" ? "user_id" : "team_id");

export async function createApiKey(
  db: Db,
  auth: RequestAuth,
  owner: KeyOwner,
  input: { description: string; expiresAtMillis: number | null; isPublic: boolean },
): Promise<ProjectApiKeyCreated> {
  const ownerId = await resolveOwner(db, auth, owner, "notFound");
  const id = crypto.randomUUID();
  const key = createProjectApiKey({ id, type: owner.type, isPublic: input.isPublic });
  const row = await db
    .insertInto("project_api_keys")
    .values({
      id,
      project_id: auth.project.id,
      type: owner.type,
      user_id: owner.type === "user" ? ownerId : null,
      team_id: owner.type === "team" ? ownerId : null,
      description: input.description,
      is_public: input.isPublic,
      secret_hash: hashSecret(key),
      last_four: key.slice(-4),
      expires_at: input.expiresAtMillis === null ? null : new Date(input.expiresAtMillis),
      manually_revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...renderApiKey(row), value: key };
}

/** The owner's keys, newest first (as the protocol lists them). */
export async function listApiKeys(db: Db, auth: RequestAuth, owner: KeyOwner): Promise<ProjectApiKeyRead[]> {
  const ownerId = await resolveOwner(db, auth, owner);
  const rows = await db
    .selectFrom("project_api_keys")
    .selectAll()
    .where("project_id", "=", auth.project.id)
    .where(ownerColumn(owner.type), "=", ownerId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(renderApiKey);
}

/**
 * One key the caller may manage. With an owner named, the key must be theirs; without one (the protocol
 * makes the owner optional when reading one key) the key is found by its id and its own owner is checked.
 */
async function ownedKey(db: Db, auth: RequestAuth, type: ApiKeyOwnerType, ownerId: string | undefined, keyId: string): Promise<KeyRow> {
  let query = db.selectFrom("project_api_keys").selectAll().where("project_id", "=", auth.project.id).where("type", "=", type);
  if (ownerId !== undefined) query = query.where(ownerColumn(type), "=", await resolveOwner(db, auth, { type, id: ownerId }));
  else requireEnabled(auth, type);
  const row = UUID.test(keyId) ? await query.where("id", "=", keyId.toLowerCase()).executeTakeFirst() : undefined;
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  if (ownerId === undefined) await resolveOwner(db, auth, { type, id: (type === "user" ? row.user_id : row.team_id)! });
  return row;
}

export async function getApiKey(db: Db, auth: RequestAuth, type: ApiKeyOwnerType, ownerId: string | undefined, keyId: string): Promise<ProjectApiKeyRead> {
  return renderApiKey(await ownedKey(db, auth, type, ownerId, keyId));
}

/** Changes the description or revokes the key. Revoking a revoked key changes nothing: it keeps its first revocation time. */
export async function updateApiKey(
  db: Db,
  auth: RequestAuth,
  type: ApiKeyOwnerType,
  ownerId: string | undefined,
  keyId: string,
  update: { description?: string; revoked?: true },
): Promise<ProjectApiKeyRead> {
  const current = await ownedKey(db, auth, type, ownerId, keyId);
  const columns: Updateable<ProjectApiKeysTable> = {};
  if (update.description !== undefined) columns.description = update.description;
  if (update.revoked && !current.manually_revoked_at) columns.manually_revoked_at = new Date();
  if (Object.keys(columns).length === 0) return renderApiKey(current);
  const row = await db.updateTable("project_api_keys").set(columns).where("id", "=", current.id).returningAll().executeTakeFirstOrThrow();
  return renderApiKey(row);
}

/**
 * The key behind a presented secret, if it is a live key of this type: API_KEY_NOT_FOUND (unknown,
 * malformed or a wrong checksum), WRONG_API_KEY_TYPE, API_KEY_EXPIRED, API_KEY_REVOKED. The row is found
 * by the id the key embeds and the secret compared with its hash in constant time.
 */
export async function checkApiKey(db: Db, auth: RequestAuth, type: ApiKeyOwnerType, secret: string): Promise<ProjectApiKeyRead> {
  requireEnabled(auth, type);
  const parsed = parseProjectApiKey(secret);
  const row = parsed
    ? await db.selectFrom("project_api_keys").selectAll().where("project_id", "=", auth.project.id).where("id", "=", parsed.id).executeTakeFirst()
    : undefined;
  if (!row || !hashesEqual(hashSecret(secret), row.secret_hash)) throw new KnownErrors.ApiKeyNotFound();
  if (row.type !== type) throw new KnownErrors.WrongApiKeyType(type, row.type);
  if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new KnownErrors.ApiKeyExpired();
  if (row.manually_revoked_at) throw new KnownErrors.ApiKeyRevoked();
  return renderApiKey(row);
}

function renderApiKey(row: KeyRow): ProjectApiKeyRead {
  const common = {
    id: row.id,
    description: row.description,
    ...(row.expires_at ? { expires_at_millis: row.expires_at.getTime() } : {}),
    ...(row.manually_revoked_at ? { manually_revoked_at_millis: row.manually_revoked_at.getTime() } : {}),
    created_at_millis: row.created_at.getTime(),
    is_public: row.is_public,
    value: { last_four: row.last_four },
  };
  return row.type === "user" ? { ...common, type: "user", user_id: row.user_id! } : { ...common, type: "team", team_id: row.team_id! };
}
