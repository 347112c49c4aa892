import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findProject } from "../src/services/projects.js";
import { mailServerOf, SendDurations, sendTiming } from "../src/services/send-timing.js";
import {
  email,
  emailProject,
  MAGIC_LINK_CALLBACK,
  post,
  RESET_CALLBACK,
  server,
  signUpWithPassword,
  smtp,
  useServerAndSmtpForFile,
} from "./support/email-flow-fixture.js";
import type { TestProject } from "./support/test-server.js";

// Issue 13 §4: "maybe sent" answers hand the mail to the mail server before answering, and for an unknown
// address wait as long as a send would take, so that neither the answer nor its timing tells whether an
// account exists.
useServerAndSmtpForFile();
afterEach(() => {
  vi.restoreAllMocks();
});

const MAYBE = { success: "maybe, only if user with e-mail exists" };
const received = (address: string) => smtp.messages.filter((message) => message.to.includes(address.toLowerCase()));
const mailServerOfProject = async (project: TestProject) => mailServerOf((await findProject(server.db, project.projectId))!);

/** Replaces the unknown-address wait with one the test controls, recording when it was released. */
function controlledWait() {
  const state = { calls: [] as string[], released: false };
  vi.spyOn(sendTiming, "waitLikeASend").mockImplementation((project) => {
    state.calls.push(project.id);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        state.released = true;
        resolve();
      }, 300),
    );
  });
  return state;
}

describe("POST /auth/password/send-reset-code", () => {
  it("has handed the mail to the mail server when the answer arrives, for an existing account", async () => {
    const project = await emailProject();
    const address = email();
    await signUpWithPassword(project, address, "a-password-1");
    const wait = controlledWait();
    const response = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    expect(response.body).toEqual(MAYBE);
    // Checked synchronously on arrival: the SMTP server has accepted the message already.
    expect(received(address)).toHaveLength(1);
    expect(received(address)[0]!.subject).toBe("Reset your password at Mail Flows");
    // The existing account's answer waited for the real send, not for an imitation.
    expect(wait.calls).toEqual([]);
  });

  it("answers an unknown email only after waiting like a send, and sends nothing", async () => {
    const project = await emailProject();
    const address = email();
    const wait = controlledWait();
    const response = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    expect(response.body).toEqual(MAYBE);
    expect(wait.calls).toEqual([project.projectId]);
    expect(wait.released).toBe(true);
    expect(received(address)).toEqual([]);
  });

  it("records each real send's duration under the project's mail server, which the wait draws from", async () => {
    const project = await emailProject();
    const mailServer = await mailServerOfProject(project);
    const address = email();
    await signUpWithPassword(project, address, "a-password-1");
    const before = sendTiming.durations.recorded(mailServer).length;
    await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
    const after = sendTiming.durations.recorded(mailServer);
    expect(after.length).toBe(Math.min(before + 1, 64));
    expect(after.at(-1)).toBeGreaterThan(0);

    const sample = vi.spyOn(sendTiming.durations, "sample");
    await post(project, "/auth/password/send-reset-code", { email: email(), callback_url: RESET_CALLBACK });
    expect(sample).toHaveBeenCalledWith(mailServer);
  });

  it("answers the same when delivery fails", async () => {
    // A port nothing listens on: the connection is refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const project = await emailProject({ "emails.server": { isShared: false, host: "127.0.0.1", port, username: "u", password: "p", senderName: "S", senderEmail: "s@flows.example" } });
    const known = email();
    await signUpWithPassword(project, known, "a-password-1");
    for (const address of [known, email()]) {
      const response = await post(project, "/auth/password/send-reset-code", { email: address, callback_url: RESET_CALLBACK });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(MAYBE);
    }
    const failed = await server.db.selectFrom("sent_emails").select(["recipient", "error"]).where("project_id", "=", project.projectId).execute();
    expect(failed).toEqual([{ recipient: known, error: expect.any(String) }]);
  });
});

describe("POST /auth/otp/send-sign-in-code", () => {
  it("has handed the mail to the mail server when the answer arrives, for an existing account and a new address", async () => {
    const project = await emailProject();
    const existing = email();
    await signUpWithPassword(project, existing, "a-password-1");
    await server.db.updateTable("contact_channels").set({ is_verified: true }).where("value", "=", existing).execute();
    const wait = controlledWait();
    for (const address of [existing, email()]) {
      const response = await post(project, "/auth/otp/send-sign-in-code", { email: address, callback_url: MAGIC_LINK_CALLBACK });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(Object.keys(response.body)).toEqual(["nonce"]);
      expect(received(address)).toHaveLength(1);
    }
    // Both cases really send (a new address signs up with the code), so neither imitates a send.
    expect(wait.calls).toEqual([]);
  });
});

describe("the delay for an unknown address (SendDurations)", () => {
  /** A random source that returns the given values in turn. */
  const scripted = (...values: number[]) => () => values.shift() ?? 0;

  it("is a recent send to the same mail server, chosen uniformly, with ±10 % jitter", () => {
    const durations = new SendDurations(64, scripted(0.5, 0.0, 1.0, 0.99, 0.0, 0.5));
    for (const ms of [100, 200, 300]) durations.record("smtp://a", ms);
    durations.record("smtp://b", 5000);
    // jitter 0.5 → ×1.0, index 0 → 100
    expect(durations.sample("smtp://a")).toBeCloseTo(100);
    // jitter 1.0 → ×1.1, index floor(0.99 × 3) = 2 → 300
    expect(durations.sample("smtp://a")).toBeCloseTo(330);
    // jitter 0.0 → ×0.9, index floor(0.5 × 3) = 1 → 200
    expect(durations.sample("smtp://a")).toBeCloseTo(180);
  });

  it("keeps only the most recent sends", () => {
    const durations = new SendDurations(3, scripted());
    for (const ms of [1, 2, 3, 4, 5]) durations.record("smtp://a", ms);
    expect(durations.recorded("smtp://a")).toEqual([3, 4, 5]);
  });

  it("borrows from other mail servers while its own window is empty, and has a plausible range with none", () => {
    const cold = new SendDurations(64, scripted(0.5, 0.0, 0.5, 1.0));
    expect(cold.sample("smtp://a")).toBeCloseTo(150);
    expect(cold.sample("smtp://a")).toBeCloseTo(600);
    const borrowing = new SendDurations(64, scripted(0.5, 0.0));
    borrowing.record("smtp://b", 700);
    expect(borrowing.sample("smtp://a")).toBeCloseTo(700);
  });
});
