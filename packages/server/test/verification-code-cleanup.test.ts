import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_GRACE_PERIOD_MS, sweepSpentVerificationCodes } from "../src/services/verification-code-cleanup.js";
import { checkVerificationCode, consumeVerificationCode, createVerificationCode } from "../src/services/verification-codes.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

async function code(projectId: string, expiresInMs: number) {
  return createVerificationCode(server.db, { projectId, purpose: "email_verification", data: { n: expiresInMs }, expiresInMs, kind: "link" });
}

async function remainingIds(projectId: string): Promise<Set<string>> {
  const rows = await server.db.selectFrom("verification_codes").select("id").where("project_id", "=", projectId).execute();
  return new Set(rows.map((r) => r.id));
}

describe("sweeping spent verification codes", () => {
  it("deletes codes used or expired before the grace period and keeps live and recently spent ones", async () => {
    const { projectId } = await createTestProject(server);
    // The sweep runs "8 days from now": the grace period (7 days) reaches back to 1 day from now.
    const now = new Date(Date.now() + 8 * DAY);
    expect(CODE_GRACE_PERIOD_MS).toBe(7 * DAY);

    const live = await code(projectId, 30 * DAY);
    const recentlyExpired = await code(projectId, 2 * DAY);
    const longExpired = await code(projectId, 12 * HOUR);
    const longUsed = await code(projectId, 30 * DAY);
    await consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: longUsed.code });

    const deleted = await sweepSpentVerificationCodes(server.db, { now });
    expect(deleted).toBeGreaterThanOrEqual(2);
    const left = await remainingIds(projectId);
    expect(left.has(live.id)).toBe(true);
    expect(left.has(recentlyExpired.id)).toBe(true);
    expect(left.has(longExpired.id)).toBe(false);
    expect(left.has(longUsed.id)).toBe(false);
    // The live code still works after the sweep.
    expect(await checkVerificationCode(server.db, { projectId, purpose: "email_verification", code: live.code })).toEqual({ n: 30 * DAY });
  });

  it("keeps a code used within the grace period, so its link still says it was already used", async () => {
    const { projectId } = await createTestProject(server);
    const used = await code(projectId, 30 * DAY);
    await consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: used.code });
    await sweepSpentVerificationCodes(server.db, { now: new Date(Date.now() + 6 * DAY) });
    await expect(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: used.code })).rejects.toMatchObject({ code: "VERIFICATION_CODE_ALREADY_USED" });
  });

  it("deletes in batches until nothing spent is left", async () => {
    const { projectId } = await createTestProject(server);
    const spent = await Promise.all(Array.from({ length: 7 }, () => code(projectId, 1000)));
    const live = await code(projectId, 30 * DAY);
    const deleted = await sweepSpentVerificationCodes(server.db, { now: new Date(Date.now() + 8 * DAY), batchSize: 2 });
    expect(deleted).toBeGreaterThanOrEqual(spent.length);
    expect([...(await remainingIds(projectId))]).toEqual([live.id]);
  });

  it("lets several sweeps run at once without errors or double work", async () => {
    const { projectId } = await createTestProject(server);
    await Promise.all(Array.from({ length: 20 }, () => code(projectId, 1000)));
    const now = new Date(Date.now() + 30 * DAY);
    // Earlier tests' rows are swept too; what matters is that the sweeps share the rows between them.
    const spentBefore = await server.db
      .selectFrom("verification_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where((eb) => eb.or([eb("expires_at", "<", new Date(now.getTime() - CODE_GRACE_PERIOD_MS)), eb("used_at", "<", new Date(now.getTime() - CODE_GRACE_PERIOD_MS))]))
      .executeTakeFirstOrThrow();
    const counts = await Promise.all(Array.from({ length: 4 }, () => sweepSpentVerificationCodes(server.db, { now, batchSize: 3 })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(spentBefore.n));
    expect((await remainingIds(projectId)).size).toBe(0);
  });
});
