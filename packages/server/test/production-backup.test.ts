import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshPostgresDatabase, me, refresh, signIn, signUp, startServerOn, type Tokens } from "./support/production-database.js";
import { createTestProject } from "./support/test-server.js";

// Issue 34, production guide, "Backups": the guide's commands (pg_dump in custom format while the server runs,
// pg_restore into a new database) give a copy a server starts on, where the same people sign in with their
// passwords and the sessions they had keep refreshing. PostgreSQL only: PGlite's data folder is copied as files.
const dir = mkdtempSync(join(tmpdir(), "latchkey-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "postgres")("backup with pg_dump, restore with pg_restore", () => {
  it("restores users, passwords, sessions, API keys and signing keys: a server on the copy signs the same users in and refreshes their old sessions", async () => {
    const original = await freshPostgresDatabase("latchkey_backup");
    const copy = await freshPostgresDatabase("latchkey_restored");
    try {
      const before = await startServerOn(original.url);
      const project = await createTestProject(before, "Backed up");
      const people = Array.from({ length: 3 }, (_, i) => ({ email: `backup-${i}-${crypto.randomUUID()}@example.com`, password: `password number ${i}!` }));
      const tokens: Tokens[] = [];
      for (const person of people) {
        const { status, body } = await signUp(before, project, person.email, person.password);
        expect(status).toBe(200);
        tokens.push(body);
      }

      // While the server runs, as a nightly job would: pg_dump takes a consistent snapshot.
      const file = join(dir, "latchkey.dump");
      execFileSync("pg_dump", ["--format=custom", "--no-owner", "--file", file, original.url], { stdio: "pipe" });
      await before.close();
      await original.drop(); // the copy must stand on its own
      execFileSync("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", copy.url, file], { stdio: "pipe" });

      const after = await startServerOn(copy.url);
      try {
        expect((await fetch(`${after.url}/ready`)).status).toBe(200);
        for (const [i, person] of people.entries()) {
          const old = tokens[i]!;
          // An access token signed before the backup still verifies: the signing keys are in the database.
          expect(await me(after, project, old.access_token)).toMatchObject({ status: 200, body: { id: old.user_id, primary_email: person.email } });
          const refreshed = await refresh(after, project, old.refresh_token);
          expect(refreshed.status).toBe(200);
          expect(await me(after, project, refreshed.body.access_token)).toMatchObject({ status: 200, body: { id: old.user_id } });
          expect(await signIn(after, project, person.email, person.password)).toMatchObject({ status: 200, body: { user_id: old.user_id } });
          expect(await signIn(after, project, person.email, "not the password")).toMatchObject({ status: 400, body: { code: "EMAIL_PASSWORD_MISMATCH" } });
        }
      } finally {
        await after.close();
      }
    } finally {
      await original.drop();
      await copy.drop();
    }
  }, 120_000);
});
