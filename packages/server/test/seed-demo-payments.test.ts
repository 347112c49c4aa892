import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderProjectConfig, type ConfigObject } from "../src/config/project-config.js";
import { INTERNAL_PROJECT_ID } from "../src/services/projects.js";
import { DEMO_PAYMENTS_CONFIG_OVERRIDE, seedInternalProject } from "../src/services/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * The dev seed's demo plans (issue 32) reach dev databases made before they existed: a start in dev mode adds
 * them when the internal project's config has no `payments` key, and leaves any config an admin has touched.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LATCHKEY_DEV_MODE: "true" });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const storedOverride = async () =>
  (await server.db.selectFrom("projects").select("config_override").where("id", "=", INTERNAL_PROJECT_ID).executeTakeFirstOrThrow()).config_override as ConfigObject;
const setOverride = (override: ConfigObject) =>
  server.db.updateTable("projects").set({ config_override: JSON.stringify(override) }).where("id", "=", INTERNAL_PROJECT_ID).execute();
const withoutPayments = (override: ConfigObject) => Object.fromEntries(Object.entries(override).filter(([key]) => !key.startsWith("payments")));
/** Another start of the server on the same database, as a restart does (its start seeds). */
async function restart(): Promise<void> {
  const again = await startTestServer({ LATCHKEY_DEV_MODE: "true" }, { sameDatabaseAs: server });
  await again.close();
}
const offerNames = async () => Object.entries(renderProjectConfig(await storedOverride()).payments.offers).map(([id, offer]) => [id, offer.displayName]).sort();

describe("the dev seed's demo plans", () => {
  it("are added on a dev start to an internal project whose config has no payments section, and nowhere else", async () => {
    const fresh = await storedOverride();
    expect(await offerNames()).toEqual([["credit-pack", "100 credits"], ["free", "Free"], ["pro", "Pro"]]);

    // A database from before the demo plans: the internal project has settings of its own but no payments.
    const older = { ...withoutPayments(fresh), "teams.allowClientTeamCreation": false };
    await setOverride(older);
    // Production mode never seeds demo plans (its seed, as a production start runs it).
    await seedInternalProject(server.db, { ...server.env, devMode: false });
    expect(await storedOverride()).toEqual(older);

    await restart();
    expect(await storedOverride()).toEqual({ ...older, ...DEMO_PAYMENTS_CONFIG_OVERRIDE });
    expect(await offerNames()).toEqual([["credit-pack", "100 credits"], ["free", "Free"], ["pro", "Pro"]]);
    expect(renderProjectConfig(await storedOverride()).teams.allowClientTeamCreation).toBe(false);
  }, 60_000);

  it("leave a payments section an admin edited or emptied as it is", async () => {
    const base = withoutPayments(await storedOverride());
    const edited = { ...base, "payments.offers.pro": { displayName: "Premium", customerType: "user", prices: { yearly: { USD: "90", interval: [1, "year"] } } } };
    await setOverride(edited);
    await restart();
    expect(await storedOverride()).toEqual(edited);
    expect(await offerNames()).toEqual([["pro", "Premium"]]);

    // Everything removed (the override keeps the null): no demo plans come back.
    const emptied = { ...base, payments: null } as unknown as ConfigObject;
    await setOverride(emptied);
    await restart();
    expect(await storedOverride()).toEqual(emptied);
    expect(await offerNames()).toEqual([]);
  }, 60_000);
});
