import { KnownErrors } from "@latchkey/protocol/errors";
import { HTTPException } from "hono/http-exception";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertSendAllowed,
  checkVerificationCode,
  consumeVerificationCode,
  createVerificationCode,
  SEND_LIMIT,
  useVerificationCode,
  type PresentedCode,
} from "../src/services/verification-codes.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The error code a call fails with, or "ok". */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof KnownErrors.VerificationCodeError) return (error as { code: string }).code;
    throw error;
  }
}

function tally(results: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result] = (counts[result] ?? 0) + 1;
  return counts;
}

async function attemptsOf(id: string): Promise<number> {
  const row = await server.db.selectFrom("verification_codes").select("attempts").where("id", "=", id).executeTakeFirstOrThrow();
  return row.attempts;
}

/** The same OTP with one character changed (still a valid-looking code). */
function wrongOtp(otp: string): string {
  return (otp[0] === "A" ? "B" : "A") + otp.slice(1);
}

describe("verification codes", () => {
  it("makes 45-character codes of the reference's alphabet, OTP + nonce, stored only hashed", async () => {
    const { projectId } = await createTestProject(server);
    const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: { email: "a@example.com" }, expiresInMs: 60_000, kind: "otp" });
    expect(created.code).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{45}$/);
    expect(created.otp).toBe(created.code.slice(0, 6).toUpperCase());
    expect(created.nonce).toBe(created.code.slice(6));
    expect(created.nonce).toHaveLength(39);
    const row = await server.db.selectFrom("verification_codes").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.nonce);
  });

  it("works exactly once when 16 consumers race it", async () => {
    const { projectId } = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "email_verification", data: { channel: "c1" }, expiresInMs: 60_000, kind: "link" });
    const results = await Promise.all(Array.from({ length: 16 }, () => outcome(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code }))));
    expect(tally(results)).toEqual({ ok: 1, VERIFICATION_CODE_ALREADY_USED: 15 });
  });

  it("works exactly once when 16 transactional flows race it", async () => {
    const { projectId } = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "password_reset", data: { userId: "u1" }, expiresInMs: 60_000, kind: "link" });
    let applied = 0;
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        outcome(
          useVerificationCode(server.db, { projectId, purpose: "password_reset", code }, async (data) => {
            expect(data).toEqual({ userId: "u1" });
            applied++;
          }),
        ),
      ),
    );
    expect(tally(results)).toEqual({ ok: 1, VERIFICATION_CODE_ALREADY_USED: 15 });
    expect(applied).toBe(1);
  });

  it("returns the data it was created with", async () => {
    const { projectId } = await createTestProject(server);
    const data = { userId: "u1", email: "a@example.com", nested: { list: [1, 2] } };
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "team_invitation", data, expiresInMs: 60_000, kind: "link" });
    expect(await consumeVerificationCode(server.db, { projectId, purpose: "team_invitation", code })).toEqual(data);
  });

  it("leaves the code unused when the flow's effect fails", async () => {
    const { projectId } = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "password_reset", data: 1, expiresInMs: 60_000, kind: "link" });
    const input: PresentedCode = { projectId, purpose: "password_reset", code };
    await expect(
      useVerificationCode(server.db, input, async () => {
        throw new Error("effect failed");
      }),
    ).rejects.toThrow("effect failed");
    expect(await consumeVerificationCode(server.db, input)).toBe(1);
  });

  it("rejects an expired code", async () => {
    const { projectId } = await createTestProject(server);
    const { code, id } = await createVerificationCode(server.db, { projectId, purpose: "email_verification", data: null, expiresInMs: 60_000, kind: "link" });
    await server.db.updateTable("verification_codes").set({ expires_at: new Date(Date.now() - 1000) }).where("id", "=", id).execute();
    const input: PresentedCode = { projectId, purpose: "email_verification", code };
    expect(await outcome(checkVerificationCode(server.db, input))).toBe("VERIFICATION_CODE_EXPIRED");
    expect(await outcome(consumeVerificationCode(server.db, input))).toBe("VERIFICATION_CODE_EXPIRED");
  });

  it("does not find an unknown, malformed, other-project or other-purpose code (404)", async () => {
    const { projectId } = await createTestProject(server);
    const other = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "email_verification", data: null, expiresInMs: 60_000, kind: "link" });
    const notFound = "VERIFICATION_CODE_NOT_FOUND";
    expect(new KnownErrors.VerificationCodeNotFound().statusCode).toBe(404);
    expect(await outcome(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: "0".repeat(45) }))).toBe(notFound);
    expect(await outcome(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: "short" }))).toBe(notFound);
    expect(await outcome(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code: code + "x" }))).toBe(notFound);
    expect(await outcome(consumeVerificationCode(server.db, { projectId: other.projectId, purpose: "email_verification", code }))).toBe(notFound);
    expect(await outcome(consumeVerificationCode(server.db, { projectId, purpose: "password_reset", code }))).toBe(notFound);
    expect(await outcome(checkVerificationCode(server.db, { projectId, purpose: "password_reset", code }))).toBe(notFound);
    // None of those used it up.
    expect(await outcome(consumeVerificationCode(server.db, { projectId, purpose: "email_verification", code }))).toBe("ok");
  });

  it("says already used (409) on second use", async () => {
    const { projectId } = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "email_verification", data: null, expiresInMs: 60_000, kind: "link" });
    const input: PresentedCode = { projectId, purpose: "email_verification", code };
    await consumeVerificationCode(server.db, input);
    expect(await outcome(consumeVerificationCode(server.db, input))).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect(await outcome(checkVerificationCode(server.db, input))).toBe("VERIFICATION_CODE_ALREADY_USED");
    expect(new KnownErrors.VerificationCodeAlreadyUsed().statusCode).toBe(409);
  });

  it("checks a code without using it", async () => {
    const { projectId } = await createTestProject(server);
    const { code } = await createVerificationCode(server.db, { projectId, purpose: "password_reset", data: { userId: "u" }, expiresInMs: 60_000, kind: "link" });
    const input: PresentedCode = { projectId, purpose: "password_reset", code };
    expect(await checkVerificationCode(server.db, input)).toEqual({ userId: "u" });
    expect(await checkVerificationCode(server.db, input)).toEqual({ userId: "u" });
    expect(await consumeVerificationCode(server.db, input)).toEqual({ userId: "u" });
  });

  it("accepts the OTP typed in upper case followed by the nonce", async () => {
    const { projectId } = await createTestProject(server);
    const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: "x", expiresInMs: 60_000, kind: "otp" });
    expect(await consumeVerificationCode(server.db, { projectId, purpose: "otp_sign_in", code: created.otp + created.nonce })).toBe("x");
  });

  it("counts 16 concurrent wrong OTP guesses atomically", async () => {
    const { projectId } = await createTestProject(server);
    const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: "x", expiresInMs: 60_000, kind: "otp", maxAttempts: 20 });
    const wrong: PresentedCode = { projectId, purpose: "otp_sign_in", code: wrongOtp(created.otp) + created.nonce };
    const results = await Promise.all(Array.from({ length: 16 }, () => outcome(consumeVerificationCode(server.db, wrong))));
    expect(tally(results)).toEqual({ VERIFICATION_CODE_NOT_FOUND: 16 });
    expect(await attemptsOf(created.id)).toBe(16);
    // Below the limit the right code still works.
    expect(await consumeVerificationCode(server.db, { projectId, purpose: "otp_sign_in", code: created.code })).toBe("x");
  });

  it("refuses every guess past max attempts, then even the right code", async () => {
    const { projectId } = await createTestProject(server);
    const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: "x", expiresInMs: 60_000, kind: "otp", maxAttempts: 5 });
    const wrong: PresentedCode = { projectId, purpose: "otp_sign_in", code: wrongOtp(created.otp) + created.nonce };
    const results = await Promise.all(Array.from({ length: 16 }, () => outcome(consumeVerificationCode(server.db, wrong))));
    expect(tally(results)).toEqual({ VERIFICATION_CODE_NOT_FOUND: 5, VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: 11 });
    expect(await attemptsOf(created.id)).toBe(5);
    const right: PresentedCode = { projectId, purpose: "otp_sign_in", code: created.code };
    expect(await outcome(checkVerificationCode(server.db, right))).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    expect(await outcome(consumeVerificationCode(server.db, right))).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
    expect(await outcome(useVerificationCode(server.db, right, async () => undefined))).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
  });

  it("counts wrong guesses made through a transactional flow and through check", async () => {
    const { projectId } = await createTestProject(server);
    const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: "x", expiresInMs: 60_000, kind: "otp", maxAttempts: 3 });
    const wrong: PresentedCode = { projectId, purpose: "otp_sign_in", code: wrongOtp(created.otp) + created.nonce };
    expect(await outcome(useVerificationCode(server.db, wrong, async () => undefined))).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect(await outcome(checkVerificationCode(server.db, wrong))).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect(await attemptsOf(created.id)).toBe(2);
    expect(await outcome(useVerificationCode(server.db, wrong, async () => undefined))).toBe("VERIFICATION_CODE_NOT_FOUND");
    expect(await outcome(useVerificationCode(server.db, { projectId, purpose: "otp_sign_in", code: created.code }, async () => undefined))).toBe(
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });

  it(`throttles sends: ${SEND_LIMIT} codes per email and purpose in the window, then 429`, async () => {
    const { projectId } = await createTestProject(server);
    const send = async (email: string, purpose: "otp_sign_in" | "password_reset" = "otp_sign_in") => {
      await assertSendAllowed(server.db, { projectId, purpose, email });
      await createVerificationCode(server.db, { projectId, purpose, data: null, expiresInMs: 60_000, kind: "otp", email });
    };
    for (let i = 0; i < SEND_LIMIT; i++) await send(i % 2 ? "Victim@Example.com" : "victim@example.com");
    const refused = await send("VICTIM@example.com").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HTTPException);
    expect((refused as HTTPException).status).toBe(429);
    expect((refused as HTTPException).message).toMatch(/Too many emails/);
    // Other addresses and other purposes are counted separately.
    await send("someone-else@example.com");
    await send("victim@example.com", "password_reset");
    // Codes older than the window no longer count.
    await sql`update verification_codes set created_at = created_at - interval '11 minutes' where project_id = ${projectId}`.execute(server.db);
    await send("victim@example.com");
  });

  it("answers the throttled send with Retry-After: until the oldest of the newest SEND_LIMIT sends leaves the window", async () => {
    const { projectId } = await createTestProject(server);
    const email = "burst@example.com";
    // Racing sends overshot the limit: 7 codes in the window, made 9, 8, … 3 minutes ago.
    for (let minutesAgo = 9; minutesAgo >= 3; minutesAgo--) {
      const created = await createVerificationCode(server.db, { projectId, purpose: "otp_sign_in", data: null, expiresInMs: 60_000, kind: "otp", email });
      await sql`update verification_codes set created_at = now() - make_interval(mins => ${minutesAgo}) where id = ${created.id}`.execute(server.db);
    }
    const refused = await assertSendAllowed(server.db, { projectId, purpose: "otp_sign_in", email }).catch((error: unknown) => error);
    expect((refused as HTTPException).status).toBe(429);
    // The 5 newest were made 7, 6, … 3 minutes ago: the one from 7 minutes ago leaves the 10-minute window in 3
    // minutes, and then only 4 are counted (the two older ones leaving first does not suffice).
    const retryAfter = Number((refused as HTTPException).getResponse().headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(175);
    expect(retryAfter).toBeLessThanOrEqual(180);
  });
});
