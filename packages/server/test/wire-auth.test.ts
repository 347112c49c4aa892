import { createServer } from "node:net";
import { decodeJwt } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { findProject } from "../src/services/projects.js";
import { mailServerOf, SendDurations, sendTiming } from "../src/services/send-timing.js";
import { api } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createUser, email as userEmail, server, signIn, useServerForFile } from "./support/users-fixture.js";

// One server for the file; the maybe-sent section starts its own, with an SMTP capture.
useServerForFile();

// Issue 13 §1 and §2: sign-in responses, anonymous sign-up, and sessions as the reference answers them.
describe("sign-in, anonymous sign-up and sessions", () => {
  const SIGN_IN_KEYS = ["access_token", "is_new_user", "refresh_token", "user_id"];
  const ALLOW_ANONYMOUS = { "x-stack-allow-anonymous-user": "true" };
  const post = (project: TestProject, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(server.url, path, { method: "POST", headers: { ...project.headers("client"), ...headers }, body });

  describe("password routes that need a signed-in user", () => {
    for (const [path, body] of [
      ["/auth/password/set", { password: "a new password" }],
      ["/auth/password/update", { old_password: "the old password", new_password: "a new password" }],
    ] as const) {
      it(`answers ${path} without a user with the reference's SCHEMA_ERROR, not 401`, async () => {
        const project = await createTestProject(server);
        const response = await post(project, path, body);
        expect(response.status).toBe(400);
        expect(response.headers.get("x-stack-known-error")).toBe("SCHEMA_ERROR");
        const message = `Request validation failed on POST /api/v1${path}:\n  - auth.user must be defined`;
        expect(response.body).toEqual({ code: "SCHEMA_ERROR", error: message, details: { message } });
      });
    }

    it("names the route's own path, under /api/latest too", async () => {
      const project = await createTestProject(server);
      const response = await fetch(`${server.url}/api/latest/auth/password/set`, {
        method: "POST",
        headers: { ...project.headers("client"), "content-type": "application/json" },
        body: JSON.stringify({ password: "a new password" }),
      });
      expect((await response.json()).error).toBe("Request validation failed on POST /api/latest/auth/password/set:\n  - auth.user must be defined");
    });
  });

  describe("sign-in responses", () => {
    it("keep is_new_user in password sign-up, password sign-in and anonymous sign-up", async () => {
      const project = await createTestProject(server);
      const address = userEmail();
      const signedUp = await post(project, "/auth/password/sign-up", { email: address, password: "correct horse" });
      expect(Object.keys(signedUp.body).sort()).toEqual(SIGN_IN_KEYS);
      expect(signedUp.body.is_new_user).toBe(true);
      const signedIn = await post(project, "/auth/password/sign-in", { email: address, password: "correct horse" });
      expect(Object.keys(signedIn.body).sort()).toEqual(SIGN_IN_KEYS);
      expect(signedIn.body).toMatchObject({ user_id: signedUp.body.user_id, is_new_user: false });
      const anonymous = await post(project, "/auth/anonymous/sign-up");
      expect(Object.keys(anonymous.body).sort()).toEqual(SIGN_IN_KEYS);
      expect(anonymous.body.is_new_user).toBe(true);
    });
  });

  describe("anonymous sign-up", () => {
    it("is allowed on the internal project", async () => {
      const response = await api(server.url, "/auth/anonymous/sign-up", { method: "POST", access: "client" });
      expect(response.status).toBe(200);
      expect(decodeJwt(response.body.access_token)).toMatchObject({ project_id: "internal", aud: "internal:anon", is_anonymous: true, sub: response.body.user_id });
      const me = await api(server.url, "/users/me", { access: "client", headers: { "x-stack-access-token": response.body.access_token, ...ALLOW_ANONYMOUS } });
      expect(me.body).toMatchObject({ id: response.body.user_id, is_anonymous: true, primary_email: null, selected_team: null });
    });

    it("is allowed when sign-up is disabled, which still refuses a password sign-up", async () => {
      const project = await createTestProject(server);
      await configure(project, { "auth.allowSignUp": false, "auth.password.allowSignIn": true });
      const anonymous = await post(project, "/auth/anonymous/sign-up");
      expect(anonymous.status).toBe(200);
      expect(decodeJwt(anonymous.body.access_token).is_anonymous).toBe(true);
      const refused = await post(project, "/auth/password/sign-up", { email: userEmail(), password: "correct horse" });
      expect(refused.body.code).toBe("SIGN_UP_NOT_ENABLED");
    });
  });

  describe("listing sessions", () => {
    it("lists impersonation sessions to admin callers only", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project);
      const own = await signIn(project, user.id);
      const impersonation = await as(project, "server", "/auth/sessions", { method: "POST", body: { user_id: user.id, is_impersonation: true } });
      expect(impersonation.status).toBe(200);
      const impersonationId = decodeJwt(impersonation.body.access_token).refresh_token_id;

      const idsAs = async (access: "client" | "server" | "admin") => {
        const listed = await as(project, access, `/auth/sessions?user_id=${access === "client" ? "me" : user.id}`, { tokens: access === "client" ? own : undefined });
        expect(listed.status).toBe(200);
        return listed.body.items.map((item: { id: string; is_impersonation: boolean }) => [item.id, item.is_impersonation]);
      };
      expect(await idsAs("client")).toEqual([[own.session.id, false]]);
      expect(await idsAs("server")).toEqual([[own.session.id, false]]);
      expect(await idsAs("admin")).toEqual([
        [impersonationId, true],
        [own.session.id, false],
      ]);
    });

    it("refuses a client naming another user with the reference's text", async () => {
      const project = await createTestProject(server);
      const alice = await createUser(project);
      const bob = await createUser(project);
      const response = await as(project, "client", `/auth/sessions?user_id=${bob.id}`, { tokens: await signIn(project, alice.id) });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toContain("text/plain");
      expect(response.text).toBe("Client can only list sessions for their own user.");
    });
  });
});

// Issue 13 §4: "maybe sent" answers hand the mail to the mail server before answering, and for an unknown
// address wait as long as a send would take, so that neither the answer nor its timing tells whether an
// account exists.
describe("maybe-sent answers", () => {
  const { email, emailProject, MAGIC_LINK_CALLBACK, post, RESET_CALLBACK, signUpWithPassword, useServerAndSmtpForFile } = emailFlow;
  useServerAndSmtpForFile();

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const MAYBE = { success: "maybe, only if user with e-mail exists" };
  const received = (address: string) => emailFlow.smtp.messages.filter((message) => message.to.includes(address.toLowerCase()));
  const mailServerOfProject = async (project: TestProject) => mailServerOf((await findProject(emailFlow.server.db, project.projectId))!);

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
      // At least this send: the sign-up's verification mail may finish beside it on a loaded machine.
      if (before < 64) expect(after.length).toBeGreaterThan(before);
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
      const failed = await emailFlow.server.db.selectFrom("sent_emails").select(["recipient", "error"]).where("project_id", "=", project.projectId).execute();
      expect(failed).toEqual([{ recipient: known, error: expect.any(String) }]);
    });
  });

  describe("POST /auth/otp/send-sign-in-code", () => {
    it("has handed the mail to the mail server when the answer arrives, for an existing account and a new address", async () => {
      const project = await emailProject();
      const existing = email();
      await signUpWithPassword(project, existing, "a-password-1");
      await emailFlow.server.db.updateTable("contact_channels").set({ is_verified: true }).where("value", "=", existing).execute();
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
});

// Issue 13 §2, through the published Stack SDK (@stackframe/js@2.8.41), unchanged: anonymous users exist on
// every project, the internal one included.
describe("the published Stack SDK on the internal project", () => {
  /** The internal project with the development keys the dev-mode server accepts. */
  const INTERNAL: TestProject = {
    projectId: "internal",
    ...WELL_KNOWN_DEV_KEYS,
    headers: () => ({}),
  };

  it("signs up an anonymous user", async () => {
    const app = stackSdk(server, INTERNAL).client();
    expect(await app.getUser()).toBeNull();
    const user = await app.getUser({ or: "anonymous" });
    expect(user.isAnonymous).toBe(true);
    expect(user.primaryEmail).toBeNull();
    const { accessToken } = await user.getAuthJson();
    expect(decodeJwt(accessToken!)).toMatchObject({ project_id: "internal", is_anonymous: true, sub: user.id });
    // The same anonymous user on later calls, and a signed-out user to callers that do not ask for anonymous ones.
    expect((await app.getUser({ or: "anonymous" })).id).toBe(user.id);
    expect(await app.getUser()).toBeNull();

    const serverApp = stackSdk(server, INTERNAL).server();
    const seen = await serverApp.getUser(user.id);
    expect(seen?.isAnonymous).toBe(true);
  });
});
