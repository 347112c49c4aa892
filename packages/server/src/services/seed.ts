import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { seededKeySetIsCurrent, upsertSeededKeySet } from "./api-keys.js";
import { INTERNAL_PROJECT_ID, NEW_PROJECT_CONFIG_OVERRIDE } from "./projects.js";

// Fixed ids make seeding idempotent: every start upserts the same rows.
const INTERNAL_OWNER_TEAM_ID = "00000000-0000-4000-8000-000000000001";
const SEEDED_KEY_SET_ID = "00000000-0000-4000-8000-000000000002";

/**
 * The internal project's users own projects through their teams (issue 3), so each gets a personal team on
 * sign-up and may create more. Only the first seed writes it; an admin's later changes survive restarts.
 */
const INTERNAL_PROJECT_CONFIG_OVERRIDE: Record<string, unknown> = {
  ...NEW_PROJECT_CONFIG_OVERRIDE,
  "teams.createPersonalTeamOnSignUp": true,
  "teams.allowClientTeamCreation": true,
};

/**
 * What the demo pages sell (issue 32) in dev mode, where the internal project is the demo's project: a "plans" group
 * with a free plan everyone holds and "pro" at USD 9.99 a month, which includes 1000 credits; a stackable credit
 * pack of 100. Without a Stripe key the purchase page completes purchases in test mode.
 */
export const DEMO_PAYMENTS_CONFIG_OVERRIDE: Record<string, unknown> = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.free": { displayName: "Free", customerType: "user", groupId: "plans", prices: "include-by-default", includedItems: { credits: { quantity: 10, repeat: "never", expires: "never" } } },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    prices: { monthly: { USD: "9.99", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, repeat: "never", expires: "when-purchase-expires" } },
  },
  "payments.offers.credit-pack": {
    displayName: "100 credits",
    customerType: "user",
    stackable: true,
    prices: { once: { USD: "4.99" } },
    includedItems: { credits: { quantity: 100, repeat: "never", expires: "never" } },
  },
};

/**
 * Makes sure the internal project, its owner team and the configured key set exist. The display name and
 * description are only set when the project is first created, so later edits by an admin survive restarts.
 */
export async function seedInternalProject(db: Db, env: Env): Promise<void> {
  const keys = Object.fromEntries(Object.entries(env.seedKeys).filter(([, v]) => v !== undefined));
  // A restart finds everything in place: reading it is all a start needs (the writes, and the triggers they fire,
  // were ~0.1 s of a warm start's CPU on PGlite; issue 35).
  if (await alreadySeeded(db, env, keys)) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("projects")
      .values({
        id: INTERNAL_PROJECT_ID,
        display_name: env.internalProject.displayName,
        description: env.internalProject.description,
        config_override: JSON.stringify(env.devMode ? { ...INTERNAL_PROJECT_CONFIG_OVERRIDE, ...DEMO_PAYMENTS_CONFIG_OVERRIDE } : INTERNAL_PROJECT_CONFIG_OVERRIDE),
        owner_team_id: null,
        logo_url: null,
        full_logo_url: null,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    await trx
      .insertInto("teams")
      .values({ id: INTERNAL_OWNER_TEAM_ID, project_id: INTERNAL_PROJECT_ID, display_name: `${env.internalProject.displayName} owners`, profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    await trx.updateTable("projects").set({ owner_team_id: INTERNAL_OWNER_TEAM_ID }).where("id", "=", INTERNAL_PROJECT_ID).where("owner_team_id", "is", null).execute();
    if (env.devMode) await addDemoPaymentsIfAbsent(trx);

    if (Object.keys(keys).length > 0) {
      await upsertSeededKeySet(trx, INTERNAL_PROJECT_ID, { id: SEEDED_KEY_SET_ID, description: "Keys from the server configuration", expiresAt: null, keys });
    } else {
      await trx.deleteFrom("api_key_sets").where("id", "=", SEEDED_KEY_SET_ID).execute();
    }
  });
}

/** Whether seeding would write nothing: the project, its owner team, the demo plans in dev mode and the key set are as seeded. */
async function alreadySeeded(db: Db, env: Env, keys: Record<string, string>): Promise<boolean> {
  const project = await db
    .selectFrom("projects")
    .innerJoin("teams", (join) => join.onRef("teams.project_id", "=", "projects.id").on("teams.id", "=", INTERNAL_OWNER_TEAM_ID))
    .select(["projects.owner_team_id", "projects.config_override"])
    .where("projects.id", "=", INTERNAL_PROJECT_ID)
    .executeTakeFirst();
  if (!project || project.owner_team_id === null) return false;
  if (env.devMode && !hasPaymentsConfig(project.config_override ?? {})) return false;
  return seededKeySetIsCurrent(db, INTERNAL_PROJECT_ID, { id: SEEDED_KEY_SET_ID, expiresAt: null, keys });
}

function hasPaymentsConfig(config: Record<string, unknown>): boolean {
  return Object.keys(config).some((key) => key === "payments" || key.startsWith("payments."));
}

/**
 * A dev database made before the demo plans existed has an internal project without them: add them when its
 * config has no `payments` key at all. Any such key (an edit, even `"payments": null` or a removed offer, which
 * the override keeps as null) means an admin has been there, and their config is left as it is.
 */
async function addDemoPaymentsIfAbsent(trx: Db): Promise<void> {
  // FOR UPDATE: two dev processes starting at once must not both merge into the row one of them read stale.
  const row = await trx.selectFrom("projects").select("config_override").where("id", "=", INTERNAL_PROJECT_ID).forUpdate().executeTakeFirst();
  if (!row) return;
  const stored = row.config_override ?? {};
  if (hasPaymentsConfig(stored)) return;
  await trx
    .updateTable("projects")
    .set({ config_override: JSON.stringify({ ...stored, ...DEMO_PAYMENTS_CONFIG_OVERRIDE }) })
    .where("id", "=", INTERNAL_PROJECT_ID)
    .execute();
}
