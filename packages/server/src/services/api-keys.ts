import type { InternalApiKeyCreated, InternalApiKeyRead, InternalPublishableClientKey } from "@latchkey/protocol/schemas";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { Selectable } from "kysely";
import type { Db } from "../db/connect.js";
import type { ApiKeySetsTable } from "../db/schema.js";
import type { Caches, KeySetHashes, ProjectWithKeys } from "../cache/caches.js";
import { hashesEqual, hashSecret, randomSecret } from "../crypto/secrets.js";
import { isValidProjectId, type ProjectRow } from "./projects.js";

export type KeyKind = "publishableClientKey" | "secretServerKey" | "superSecretAdminKey";
type KeySetRow = Selectable<ApiKeySetsTable>;

const KEY_PREFIX: Record<KeyKind, string> = { publishableClientKey: "pck_", secretServerKey: "ssk_", superSecretAdminKey: "sak_" };
const HASH_COLUMN = {
  publishableClientKey: "publishable_client_key_hash",
  secretServerKey: "secret_server_key_hash",
  superSecretAdminKey: "super_secret_admin_key_hash",
} as const;

export interface NewKeySet {
  description: string;
  expiresAt: Date | null;
  keys: Partial<Record<KeyKind, string>>;
  id?: string;
}

function keyColumns(keys: Partial<Record<KeyKind, string>>) {
  const column = (key: string | undefined) => (key === undefined ? { hash: null, lastFour: null } : { hash: hashSecret(key), lastFour: key.slice(-4) });
  const p = column(keys.publishableClientKey);
  const s = column(keys.secretServerKey);
  const a = column(keys.superSecretAdminKey);
  return {
    // The publishable key is public (every page of the app carries it), so it is kept to be shown again.
    publishable_client_key: keys.publishableClientKey ?? null,
    publishable_client_key_hash: p.hash,
    publishable_client_key_last_four: p.lastFour,
    secret_server_key_hash: s.hash,
    secret_server_key_last_four: s.lastFour,
    super_secret_admin_key_hash: a.hash,
    super_secret_admin_key_last_four: a.lastFour,
  };
}

/** Creates a key set with freshly generated keys of the requested kinds; the plain keys are returned once. */
export async function createKeySet(
  db: Db,
  projectId: string,
  options: { description: string; expiresAt: Date | null; kinds: KeyKind[] },
): Promise<InternalApiKeyCreated> {
  const keys: Partial<Record<KeyKind, string>> = {};
  for (const kind of options.kinds) keys[kind] = KEY_PREFIX[kind] + randomSecret();
  const row = await insertKeySet(db, projectId, { description: options.description, expiresAt: options.expiresAt, keys });
  const { publishable_client_key: _p, secret_server_key: _s, super_secret_admin_key: _a, ...base } = toRead(row);
  return {
    ...base,
    ...(keys.publishableClientKey ? { publishable_client_key: keys.publishableClientKey } : {}),
    ...(keys.secretServerKey ? { secret_server_key: keys.secretServerKey } : {}),
    ...(keys.superSecretAdminKey ? { super_secret_admin_key: keys.superSecretAdminKey } : {}),
  };
}

export async function insertKeySet(db: Db, projectId: string, set: NewKeySet): Promise<KeySetRow> {
  return db
    .insertInto("api_key_sets")
    .values({ ...(set.id ? { id: set.id } : {}), project_id: projectId, description: set.description, expires_at: set.expiresAt, ...keyColumns(set.keys) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a seeded key set's keys (idempotent seeding: the configured keys always win). */
export async function upsertSeededKeySet(db: Db, projectId: string, set: NewKeySet & { id: string }): Promise<void> {
  const columns = keyColumns(set.keys);
  await db
    .insertInto("api_key_sets")
    .values({ id: set.id, project_id: projectId, description: set.description, expires_at: set.expiresAt, ...columns })
    .onConflict((oc) => oc.column("id").doUpdateSet({ ...columns, manually_revoked_at: null, expires_at: set.expiresAt }))
    .execute();
}

/**
 * Whether the key set `id` of the project already holds exactly what `upsertSeededKeySet` would write (same keys,
 * not revoked, same expiry), or, with no keys, does not exist: then seeding it again would change nothing.
 */
export async function seededKeySetIsCurrent(db: Db, projectId: string, set: { id: string; expiresAt: Date | null; keys: Partial<Record<KeyKind, string>> }): Promise<boolean> {
  const row = await db.selectFrom("api_key_sets").selectAll().where("id", "=", set.id).executeTakeFirst();
  if (Object.keys(set.keys).length === 0) return row === undefined;
  if (!row || row.project_id !== projectId || row.manually_revoked_at !== null || (row.expires_at?.getTime() ?? null) !== (set.expiresAt?.getTime() ?? null)) return false;
  const same = (a: Uint8Array | string | null, b: Uint8Array | string | null) =>
    a === null || b === null || typeof a === "string" || typeof b === "string" ? a === b : Buffer.from(a).equals(Buffer.from(b));
  return Object.entries(keyColumns(set.keys)).every(([column, value]) => same(row[column as keyof typeof row] as Uint8Array | string | null, value));
}

export async function listKeySets(db: Db, projectId: string): Promise<InternalApiKeyRead[]> {
  const rows = await db.selectFrom("api_key_sets").selectAll().where("project_id", "=", projectId).orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map(toRead);
}

/**
 * The publishable keys of the project's valid key sets that can be shown again (made since migration 0038;
 * older ones are known only by their hash), newest first: what the dashboard's Get started page shows.
 */
export async function listReadablePublishableKeys(db: Db, projectId: string): Promise<InternalPublishableClientKey[]> {
  const rows = await db
    .selectFrom("api_key_sets")
    .select(["id", "description", "created_at", "expires_at", "manually_revoked_at", "publishable_client_key"])
    .where("project_id", "=", projectId)
    .where("publishable_client_key", "is not", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  const now = new Date();
  return rows
    .filter((row) => keySetValidity(row, now) === "valid")
    .map((row) => ({
      id: row.id,
      description: row.description,
      publishable_client_key: row.publishable_client_key!,
      created_at_millis: row.created_at.getTime(),
      expires_at_millis: row.expires_at ? row.expires_at.getTime() : NEVER_EXPIRES_MILLIS,
    }));
}

export async function getKeySet(db: Db, projectId: string, id: string): Promise<InternalApiKeyRead> {
  return toRead(await findKeySetRow(db, projectId, id));
}

export async function updateKeySet(db: Db, projectId: string, id: string, update: { description?: string; revoked?: true }): Promise<InternalApiKeyRead> {
  await findKeySetRow(db, projectId, id);
  const row = await db
    .updateTable("api_key_sets")
    .set({
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.revoked ? { manually_revoked_at: new Date() } : {}),
    })
    .where("project_id", "=", projectId)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRead(row);
}

export async function deleteKeySet(db: Db, projectId: string, id: string): Promise<void> {
  await findKeySetRow(db, projectId, id);
  await db.deleteFrom("api_key_sets").where("project_id", "=", projectId).where("id", "=", id).execute();
}

export type KeySetValidity = "valid" | "expired" | "manually-revoked";

/** SPEC §4: internal keys check expiry first, then manual revocation. */
export function keySetValidity(row: Pick<KeySetRow, "expires_at" | "manually_revoked_at">, now = new Date()): KeySetValidity {
  if (row.expires_at && row.expires_at.getTime() < now.getTime()) return "expired";
  if (row.manually_revoked_at) return "manually-revoked";
  return "valid";
}

async function findKeySetRow(db: Db, projectId: string, id: string): Promise<KeySetRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const row = isUuid ? await db.selectFrom("api_key_sets").selectAll().where("project_id", "=", projectId).where("id", "=", id).executeTakeFirst() : undefined;
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  return row;
}

// Key sets without an expiry are shown with the largest expiry the protocol's number field carries.
const NEVER_EXPIRES_MILLIS = 8_640_000_000_000_000;

function toRead(row: KeySetRow): InternalApiKeyRead {
  return {
    id: row.id,
    description: row.description,
    expires_at_millis: row.expires_at ? row.expires_at.getTime() : NEVER_EXPIRES_MILLIS,
    ...(row.manually_revoked_at ? { manually_revoked_at_millis: row.manually_revoked_at.getTime() } : {}),
    created_at_millis: row.created_at.getTime(),
    ...(row.publishable_client_key_last_four ? { publishable_client_key: { last_four: row.publishable_client_key_last_four } } : {}),
    ...(row.secret_server_key_last_four ? { secret_server_key: { last_four: row.secret_server_key_last_four } } : {}),
    ...(row.super_secret_admin_key_last_four ? { super_secret_admin_key: { last_four: row.super_secret_admin_key_last_four } } : {}),
  };
}

/**
 * The project and whether `key` is a currently valid key of the given kind for it: what the request
 * pipeline checks on every request, served from the project cache (cache/caches.ts) when it holds the
 * project. The presented key's SHA-256 is compared with every stored hash of its kind in constant time.
 */
export async function findProjectCheckingKey(
  db: Db,
  caches: Caches,
  projectId: string,
  check: { kind: KeyKind; key: string } | undefined,
): Promise<{ project: ProjectRow; keyValid: boolean } | undefined> {
  if (!isValidProjectId(projectId)) return undefined;
  const id = projectId.toLowerCase();
  let found = await caches.projects.get(id, () => loadProjectWithKeys(db, id));
  if (!found) return undefined;
  if (!check) return { project: found.project, keyValid: false };
  const presented = hashOfPresentedKey(check.key);
  let match = matchKey(found.keySets, check.kind, presented);
  if (match === "unknown") {
    // A key created a moment ago by another process is not in this process's cached copy until that
    // process's change notification arrives: a key we have never seen is looked up once more in the database.
    caches.projects.invalidate(id);
    found = await caches.projects.get(id, () => loadProjectWithKeys(db, id));
    if (!found) return undefined;
    match = matchKey(found.keySets, check.kind, presented);
  }
  if (match !== "unknown") rememberMatchedKey(check.key, presented);
  return { project: found.project, keyValid: match === "valid" };
}

// Hashes of keys that matched a stored key set, by the key: every request of an app presents the same key, and its
// hash need not be worked out again. Only keys that matched are kept (a flood of made-up keys cannot grow it), and
// the hash is still compared in constant time with the stored one on every request.
const matchedKeyHashes = new Map<string, Uint8Array>();
const MATCHED_KEY_HASHES_MAX = 1_000;

function hashOfPresentedKey(key: string): Uint8Array {
  return matchedKeyHashes.get(key) ?? hashSecret(key);
}

function rememberMatchedKey(key: string, hash: Uint8Array): void {
  if (matchedKeyHashes.has(key)) return;
  if (matchedKeyHashes.size >= MATCHED_KEY_HASHES_MAX) matchedKeyHashes.clear();
  matchedKeyHashes.set(key, hash);
}

/** Whether a presented key hash belongs to a valid key set, only to expired or revoked ones, or to none. */
function matchKey(keySets: readonly KeySetHashes[], kind: KeyKind, presented: Uint8Array): "valid" | "invalid" | "unknown" {
  const column = HASH_COLUMN[kind];
  const now = new Date();
  let result: "valid" | "invalid" | "unknown" = "unknown";
  for (const set of keySets) {
    if (!hashesEqual(presented, set[column])) continue;
    if (keySetValidity(set, now) === "valid") result = "valid";
    else if (result === "unknown") result = "invalid";
  }
  return result;
}

async function loadProjectWithKeys(db: Db, id: string): Promise<ProjectWithKeys | undefined> {
  const [project, keySets] = await Promise.all([
    db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst(),
    db
      .selectFrom("api_key_sets")
      .select(["publishable_client_key_hash", "secret_server_key_hash", "super_secret_admin_key_hash", "expires_at", "manually_revoked_at"])
      .where("project_id", "=", id)
      .execute(),
  ]);
  return project ? { project, keySets } : undefined;
}
