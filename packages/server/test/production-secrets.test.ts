import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { freshPostgresDatabase, me, refresh, signIn, signUp, startServerOn } from "./support/production-database.js";
import { createTestProject } from "./support/test-server.js";

// Issue 34, production guide, "Secrets": rotating LATCHKEY_SERVER_SECRET as the guide says — start every process
// with the new secret and the old one in LATCHKEY_PREVIOUS_SERVER_SECRETS — signs nobody out: access tokens made
// under the old secret still verify (the signing keys are re-encrypted with the new one as processes load them),
// refresh tokens still refresh, passwords still sign in; afterwards the old secret can leave for those.
// PostgreSQL only: a deployment's database, restarted by URL (an in-memory PGlite ends with its server).
const secret = () => randomBytes(48).toString("base64"); // what `openssl rand -base64 48` prints

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "postgres")("rotating LATCHKEY_SERVER_SECRET", () => {
  it("signs nobody out: tokens from before keep working under the new secret, and after the old one is dropped", async () => {
    const database = await freshPostgresDatabase("latchkey_secrets");
    const [oldSecret, newSecret] = [secret(), secret()];
    try {
      const before = await startServerOn(database.url, { LATCHKEY_SERVER_SECRET: oldSecret });
      const project = await createTestProject(before, "Rotated");
      const email = `rotate-${crypto.randomUUID()}@example.com`;
      const { body: tokens } = await signUp(before, project, email, "a long enough password");
      await before.close();

      const rotating = await startServerOn(database.url, { LATCHKEY_SERVER_SECRET: newSecret, LATCHKEY_PREVIOUS_SERVER_SECRETS: oldSecret });
      try {
        expect(await me(rotating, project, tokens.access_token)).toMatchObject({ status: 200, body: { id: tokens.user_id } });
        expect((await refresh(rotating, project, tokens.refresh_token)).status).toBe(200);
      } finally {
        await rotating.close();
      }

      // Every process has run with the new secret: the signing keys are now encrypted with it alone.
      const after = await startServerOn(database.url, { LATCHKEY_SERVER_SECRET: newSecret });
      try {
        expect(await me(after, project, tokens.access_token)).toMatchObject({ status: 200, body: { id: tokens.user_id, primary_email: email } });
        const refreshed = await refresh(after, project, tokens.refresh_token);
        expect(refreshed.status).toBe(200);
        expect(await me(after, project, refreshed.body.access_token)).toMatchObject({ status: 200 });
        expect(await signIn(after, project, email, "a long enough password")).toMatchObject({ status: 200, body: { user_id: tokens.user_id } });
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});
