import { beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "svix";
import { getProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { createUser as createUserInService } from "../src/services/users.js";
import { api } from "./support/api.js";
import type { SmtpCapture } from "./support/smtp-capture.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";
import { expectSameEvents, ofTypes, useWebhookServer, waitUntil, type Receiver } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18), the events: written with the change, delivered by the server's worker to a real HTTP
 * receiver that verifies every delivery with the official `svix` package; retries, endpoints that keep failing,
 * and several processes sharing the work.
 */

const fixture = useWebhookServer();
const { svixFor, listen, as } = fixture;
let server: TestServer;
let receiver: Receiver;
let smtp: SmtpCapture;
beforeAll(() => ({ server, receiver, smtp } = fixture.parts()));

describe("webhook events", () => {
  it("delivers user and team create, update and delete events, signed and verified, with the server read shapes", async () => {
    const project = await createTestProject(server);
    // Creators' default permissions are announced too (tested below); this endpoint takes the rest.
    const hook = await listen(project, {
      filterTypes: ["user.created", "user.updated", "user.deleted", "team.created", "team.updated", "team.deleted", "team_membership.created", "team_membership.deleted"],
    });

    const user = await as(project, "server", "/users", "POST", { primary_email: `u-${crypto.randomUUID()}@example.com`, display_name: "Ada" });
    expect(user.status).toBe(201);
    const [created] = await hook.waitFor(1);
    expect(created!.verified).not.toBeNull();
    expect(created!.verified!.type).toBe("user.created");
    const { last_active_at_millis: _ignored, ...userShape } = (await as(project, "server", `/users/${user.body.id}`)).body;
    expect(created!.verified!.data).toMatchObject(userShape);
    // The Standard Webhooks headers and Svix's carry the same values.
    expect(created!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(created!.headers["svix-id"]).toBe(created!.headers["webhook-id"]);
    expect(created!.headers["svix-signature"]).toBe(created!.headers["webhook-signature"]);

    expect((await as(project, "server", `/users/${user.body.id}`, "PATCH", { display_name: "Ada L." })).status).toBe(200);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Acme", creator_user_id: user.body.id });
    expect(team.status).toBe(201);
    expect((await as(project, "server", `/teams/${team.body.id}`, "PATCH", { display_name: "Acme Inc." })).status).toBe(200);
    expect((await as(project, "server", `/teams/${team.body.id}`, "DELETE")).status).toBe(200);
    const second = await as(project, "server", "/teams", "POST", { display_name: "Beta", creator_user_id: user.body.id });
    expect((await as(project, "server", `/users/${user.body.id}`, "DELETE")).status).toBe(200);

    // created, updated, team.created + membership, team.updated, membership removed + team.deleted,
    // team.created + membership, membership removed (by the user's deletion) + user.deleted.
    const all = await hook.waitFor(11);
    expect(all.every((d) => d.verified !== null)).toBe(true);
    expect(ofTypes(all, "user.updated").map((e) => e.data.display_name)).toEqual(["Ada L."]);
    expectSameEvents(
      ofTypes(all, "team.created").map((e) => e.data),
      [
        expect.objectContaining({ id: team.body.id, display_name: "Acme", server_metadata: null, created_at_millis: team.body.created_at_millis }),
        expect.objectContaining({ id: second.body.id, display_name: "Beta" }),
      ],
    );
    expect(ofTypes(all, "team.updated").map((e) => e.data)).toEqual([expect.objectContaining({ id: team.body.id, display_name: "Acme Inc." })]);
    expect(ofTypes(all, "team.deleted").map((e) => e.data)).toEqual([{ id: team.body.id }]);
    const membership = (teamId: string) => ({ team_id: teamId, user_id: user.body.id });
    expectSameEvents(ofTypes(all, "team_membership.created").map((e) => e.data), [membership(team.body.id), membership(second.body.id)]);
    expectSameEvents(ofTypes(all, "team_membership.deleted").map((e) => e.data), [membership(team.body.id), membership(second.body.id)]);
    expect(ofTypes(all, "user.deleted").map((e) => e.data)).toEqual([{ id: user.body.id, teams: [{ id: second.body.id }] }]);
    // One message per event: every delivery has its own id.
    expect(new Set(all.map((d) => d.headers["webhook-id"])).size).toBe(all.length);
  });

  it("announces a sign-up's personal team, and the user as the creating route answers it (before that team)", async () => {
    const project = await createTestProject(server, "Personal teams", { configOverride: { "teams.createPersonalTeamOnSignUp": true } });
    const hook = await listen(project, { filterTypes: ["user.created", "team.created", "team_membership.created"] });
    const user = await as(project, "server", "/users", "POST", { display_name: "Grace" });
    expect(user.status).toBe(201);
    const all = await hook.waitFor(3);
    const { selected_team_id: selectedTeamId } = (await as(project, "server", `/users/${user.body.id}`)).body;
    const [team] = ofTypes(all, "team.created").map((e) => e.data);
    expect(team).toMatchObject({ id: selectedTeamId, display_name: "Grace's Team" });
    expect(ofTypes(all, "team_membership.created").map((e) => e.data)).toEqual([{ team_id: team.id, user_id: user.body.id }]);
    const { last_active_at_millis: _ignored, ...answered } = user.body;
    expect(ofTypes(all, "user.created").map((e) => e.data)).toEqual([expect.objectContaining({ ...answered, selected_team: null, selected_team_id: null })]);
  });

  it("announces memberships added and removed through the membership routes", async () => {
    const project = await createTestProject(server);
    const user = await as(project, "server", "/users", "POST", {});
    const team = await as(project, "server", "/teams", "POST", { display_name: "Crew" });
    const hook = await listen(project, { filterTypes: ["team_membership.created", "team_membership.deleted"] });
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "DELETE")).status).toBe(200);
    const all = await hook.waitFor(2);
    expectSameEvents(
      all.map((d) => d.verified),
      [
        { type: "team_membership.created", data: { team_id: team.body.id, user_id: user.body.id } },
        { type: "team_membership.deleted", data: { team_id: team.body.id, user_id: user.body.id } },
      ],
    );
  });

  it("announces a membership made by accepting a team invitation", async () => {
    const project = await createTestProject(server);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Invited" });
    const address = `invitee-${crypto.randomUUID()}@example.com`;
    const invitee = await as(project, "server", "/users", "POST", { primary_email: address, primary_email_verified: true });
    const hook = await listen(project, { filterTypes: ["team_membership.created"] });
    const callback = "http://localhost:3000/handler/team-invitation";
    const sent = await as(project, "server", "/team-invitations/send-code", "POST", { team_id: team.body.id, email: address, callback_url: callback });
    expect(sent.status, sent.text).toBe(200);
    // The invitation reaches the test's mail server; its link carries the code.
    const mail = await smtp.nextMessage(address);
    const link = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")).find((href) => href.startsWith(`${callback}?code=`));
    expect(link, mail.html).toBeDefined();
    const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, project.projectId), userId: invitee.body.id });
    const accepted = await api(server.url, "/team-invitations/accept", {
      method: "POST",
      body: { code: new URL(link!).searchParams.get("code") },
      headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const [joined] = await hook.waitFor(1);
    expect(joined!.verified).toEqual({ type: "team_membership.created", data: { team_id: team.body.id, user_id: invitee.body.id } });
  });

  it("announces permissions granted and revoked, including a new member's default permissions", async () => {
    const project = await createTestProject(server);
    const patched = await as(project, "admin", "/internal/config/override", "PATCH", {
      config_override_string: JSON.stringify({ "rbac.defaultPermissions.teamMember": { $read_members: true } }),
    });
    expect(patched.status).toBe(200);
    expect((await as(project, "admin", "/project-permission-definitions", "POST", { id: "read_reports" })).status).toBe(201);
    const user = await as(project, "server", "/users", "POST", {});
    const team = await as(project, "server", "/teams", "POST", { display_name: "Crew" });
    const hook = await listen(project, { filterTypes: ["team_permission.created", "team_permission.deleted", "project_permission.created", "project_permission.deleted"] });
    const member = { team_id: team.body.id, user_id: user.body.id };
    expect((await as(project, "server", `/team-memberships/${team.body.id}/${user.body.id}`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "POST", {})).status).toBe(201);
    // Granting a permission already held changes nothing and announces nothing.
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/team-permissions/${team.body.id}/${user.body.id}/$update_team`, "DELETE")).status).toBe(200);
    expect((await as(project, "server", `/project-permissions/${user.body.id}/read_reports`, "POST", {})).status).toBe(201);
    expect((await as(project, "server", `/project-permissions/${user.body.id}/read_reports`, "DELETE")).status).toBe(200);
    const all = await hook.waitFor(5);
    expectSameEvents(
      all.map((d) => d.verified),
      [
        { type: "team_permission.created", data: { id: "$read_members", ...member } },
        { type: "team_permission.created", data: { id: "$update_team", ...member } },
        { type: "team_permission.deleted", data: { id: "$update_team", ...member } },
        { type: "project_permission.created", data: { id: "read_reports", user_id: user.body.id } },
        { type: "project_permission.deleted", data: { id: "read_reports", user_id: user.body.id } },
      ],
    );
    // Written with their changes, so all there by now: five, none for the grant that was already held.
    const written = await (await svixFor(project)).message.list(project.projectId, { eventTypes: ["team_permission.created", "team_permission.deleted"] });
    expect(written.data).toHaveLength(3);
  });

  it("retries a delivery the receiver refused, with the same webhook-id, until it is accepted; lists the attempts; resends", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    receiver.plans.set(hook.path, [500]);
    await as(project, "server", "/users", "POST", {});
    // The second attempt comes 5 s (±10 %) after the first.
    const [refused, accepted] = await hook.waitFor(2);
    expect(refused!.verified!.type).toBe("user.created");
    expect(accepted!.verified).toEqual(refused!.verified);
    expect(accepted!.headers["webhook-id"]).toBe(refused!.headers["webhook-id"]);
    // The worker records the outcome once the receiver has answered.
    const row = await waitUntil(async () => {
      const delivery = await server.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", hook.endpoint.id).executeTakeFirstOrThrow();
      return delivery.status === "pending" ? undefined : delivery;
    });
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, last_response_status: 200, next_attempt_at: null });
    // The attempts as the svix client lists them, newest first; then a resend goes out at once, with the same id.
    const svix = await svixFor(project);
    const messageId = refused!.headers["webhook-id"] as string;
    const byMessage = await svix.messageAttempt.listByMsg(project.projectId, messageId);
    expect(byMessage.data.map((a) => [a.responseStatusCode, a.statusText, a.response])).toEqual([
      [200, "success", "ok"],
      [500, "fail", "try again"],
    ]);
    expect(byMessage.data.every((a) => a.msgId === messageId && a.endpointId === hook.endpoint.id && a.url === receiver.url + hook.path)).toBe(true);
    expect((await svix.messageAttempt.listByEndpoint(project.projectId, hook.endpoint.id, { status: 2 })).data.map((a) => a.responseStatusCode)).toEqual([500]);
    await svix.messageAttempt.resend(project.projectId, messageId, hook.endpoint.id);
    const [, , resent] = await hook.waitFor(3);
    expect(resent!.headers["webhook-id"]).toBe(messageId);
    expect(resent!.verified).toEqual(refused!.verified);
    await expect(svix.messageAttempt.resend(project.projectId, "msg_unknown", hook.endpoint.id)).rejects.toMatchObject({ code: 404 });
  }, 40_000);

  it("signs with the old and the new secret for a while after a rotation", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { filterTypes: ["team.created"] });
    const svix = await svixFor(project);
    const oldSecret = receiver.secrets.get(hook.path)!;
    const newSecret = "whsec_" + Buffer.from("a new secret of twenty-four+ bytes").toString("base64");
    await svix.endpoint.rotateSecret(project.projectId, hook.endpoint.id, { key: newSecret });
    expect((await svix.endpoint.getSecret(project.projectId, hook.endpoint.id)).key).toBe(newSecret);
    await as(project, "server", "/teams", "POST", { display_name: "Rotated" });
    const [delivery] = await hook.waitFor(1);
    expect(String(delivery!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({ type: "team.created" });
    }
    await expect(svix.endpoint.rotateSecret(project.projectId, "ep_unknown", {})).rejects.toMatchObject({ code: 404 });
  });

  it("emits nothing for a change that is rolled back", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    const row = await getProject(server.db, project.projectId);
    await expect(
      server.db.transaction().execute(async (trx) => {
        await createUserInService(trx, row, { displayName: "Rolled back" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // A committed change afterwards arrives; the rolled-back one never does.
    await as(project, "server", "/users", "POST", { display_name: "Committed" });
    await hook.waitFor(1);
    expect(hook.events().map((e) => e?.data.display_name)).toEqual(["Committed"]);
    // The outbox holds the committed event alone, so nothing else can be delivered later.
    const messages = await server.db.selectFrom("webhook_messages").select("payload").where("project_id", "=", project.projectId).execute();
    expect(messages).toHaveLength(1);
  });

  it("makes an event's deliveries in the worker: held, the write leaves its messages only; resumed, each endpoint listening then gets them once", async () => {
    const project = await createTestProject(server);
    const before = await listen(project);
    await server.webhookDelivery.pause();
    let resumed = false;
    try {
      const team = await as(project, "server", "/teams", "POST", { display_name: "Written while held" });
      expect(team.status).toBe(201);
      const messages = await server.db.selectFrom("webhook_messages").select(["id", "fan_out_pending"]).where("project_id", "=", project.projectId).execute();
      expect(messages.map((m) => m.fan_out_pending)).toEqual([true]);
      const deliveries = await server.db.selectFrom("webhook_deliveries").select("message_id").where("message_id", "in", messages.map((m) => m.id)).execute();
      expect(deliveries).toEqual([]);
      // An endpoint made after the event was written was not there to hear it.
      const after = await listen(project);
      server.webhookDelivery.resume();
      resumed = true;
      await before.waitFor(1);
      await as(project, "server", "/teams", "POST", { display_name: "Written after both" });
      await after.waitFor(1);
      await before.waitFor(2);
      expect(before.events().map((e) => e?.data.display_name)).toEqual(["Written while held", "Written after both"]);
      expect(after.events().map((e) => e?.data.display_name)).toEqual(["Written after both"]);
      const pending = await server.db.selectFrom("webhook_messages").select("id").where("project_id", "=", project.projectId).where("fan_out_pending", "=", true).execute();
      expect(pending).toEqual([]);
    } finally {
      if (!resumed) server.webhookDelivery.resume();
    }
  });

  it("sends only the types an endpoint filters for, nothing to a disabled endpoint, and writes nothing without endpoints", async () => {
    const project = await createTestProject(server);
    const teamsOnly = await listen(project, { filterTypes: ["team.created"] });
    const disabled = await listen(project, { disabled: true });
    await as(project, "server", "/users", "POST", {});
    await as(project, "server", "/teams", "POST", { display_name: "Only this" });
    await teamsOnly.waitFor(1);
    expect(teamsOnly.events().map((e) => e?.type)).toEqual(["team.created"]);
    // What is queued decides what will ever be sent: one team.created for the filtered endpoint, nothing for the disabled one.
    const queued = await server.db
      .selectFrom("webhook_deliveries")
      .innerJoin("webhook_messages", "webhook_messages.id", "webhook_deliveries.message_id")
      .select(["webhook_deliveries.endpoint_id", "webhook_messages.event_type"])
      .where("webhook_messages.project_id", "=", project.projectId)
      .execute();
    expect(queued).toEqual([{ endpoint_id: teamsOnly.endpoint.id, event_type: "team.created" }]);
    expect(disabled.received()).toEqual([]);

    const quiet = await createTestProject(server);
    await as(quiet, "server", "/users", "POST", {});
    const messages = await server.db.selectFrom("webhook_messages").select("id").where("project_id", "=", quiet.projectId).execute();
    expect(messages).toEqual([]);
  });
});

describe("an endpoint that keeps failing", () => {
  it("is disabled once its attempts have failed for 5 days, its project's admins get one mail, and enabling it resumes delivery", async () => {
    const project = await createTestProject(server, "Failing hooks");
    // The project's admin: a user of the internal project, in the team that owns the project.
    const ownerEmail = `owner-${crypto.randomUUID()}@example.com`;
    const owner = await createUserInService(server.db, (await getProject(server.db, "internal"))!, { primaryEmail: ownerEmail, primaryEmailVerified: true });
    await server.db.updateTable("projects").set({ owner_team_id: owner.selected_team_id }).where("id", "=", project.projectId).execute();
    const hook = await listen(project, { filterTypes: ["user.created"] });
    receiver.plans.set(hook.path, Array.from({ length: 50 }, () => 503));
    const endpointRow = () => server.db.selectFrom("webhook_endpoints").select(["failing_since", "disabled"]).where("id", "=", hook.endpoint.id).executeTakeFirstOrThrow();

    await as(project, "server", "/users", "POST", { display_name: "First" });
    await hook.waitFor(1);
    // A failure starts the run of failures, but 5 days have not passed.
    await waitUntil(async () => ((await endpointRow()).failing_since ? true : undefined));
    expect((await endpointRow()).disabled).toBe(false);

    // As if the run had begun 5 days ago: the next failure disables the endpoint.
    await server.db.updateTable("webhook_endpoints").set({ failing_since: new Date(Date.now() - 5 * 86_400_000 - 60_000) }).where("id", "=", hook.endpoint.id).execute();
    const second = await as(project, "server", "/users", "POST", { display_name: "Second" });
    await waitUntil(async () => ((await endpointRow()).disabled ? true : undefined));
    const svix = await svixFor(project);
    expect((await svix.endpoint.get(project.projectId, hook.endpoint.id)).disabled).toBe(true);
    const mail = await smtp.nextMessage(ownerEmail);
    expect(mail.subject).toBe("Webhook endpoint disabled: Failing hooks");
    expect(mail.text).toContain(`${receiver.url}${hook.path}`);
    expect(mail.text).toContain("5 days");

    // While disabled nothing is sent; new events are not queued for it, and what was pending waits.
    const deliveredWhileDisabled = hook.received().length;
    await as(project, "server", "/users", "POST", { display_name: "Third" });
    const queued = await server.db.selectFrom("webhook_deliveries").select(["status"]).where("endpoint_id", "=", hook.endpoint.id).execute();
    expect(queued).toHaveLength(2);

    // Enabled again with a receiver that answers: the run of failures is over, and the pending deliveries go out.
    receiver.plans.set(hook.path, []);
    await svix.endpoint.patch(project.projectId, hook.endpoint.id, { disabled: false });
    expect((await endpointRow()).failing_since).toBeNull();
    const delivered = await waitUntil(async () => {
      const ok = hook.received().slice(deliveredWhileDisabled).map((d) => d.verified!.data.id);
      return ok.includes(second.body.id) ? ok : undefined;
    }, 30_000);
    expect(delivered).toContain(second.body.id);
    // One mail only.
    expect(smtp.messages.filter((m) => m.to.includes(ownerEmail))).toHaveLength(1);
  });
});

describe("several server processes on one database", () => {
  it("deliver each message once: the workers share the due deliveries instead of racing for them", async () => {
    const second = await startTestServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" }, { sameDatabaseAs: server });
    try {
      const project = await createTestProject(server);
      const hook = await listen(project, { filterTypes: ["team.created"] });
      // Half the changes through each process, at once.
      const teams = await Promise.all(
        Array.from({ length: 30 }, (_, i) => api(i % 2 ? second.url : server.url, "/teams", { method: "POST", body: { display_name: `T${i}` }, headers: project.headers("server") })),
      );
      expect(teams.every((t) => t.status === 201)).toBe(true);
      await hook.waitFor(30);
      await waitUntil(async () => {
        const pending = await server.db.selectFrom("webhook_deliveries").select("message_id").where("endpoint_id", "=", hook.endpoint.id).where("status", "!=", "succeeded").execute();
        return pending.length === 0 ? true : undefined;
      });
      const received = hook.received();
      expect(received).toHaveLength(30);
      expect(new Set(received.map((d) => d.headers["webhook-id"])).size).toBe(30);
      expect(new Set(received.map((d) => d.verified?.data.id))).toEqual(new Set(teams.map((t) => t.body.id)));
      const attempts = await server.db.selectFrom("webhook_attempts").select("message_id").where("endpoint_id", "=", hook.endpoint.id).execute();
      expect(attempts).toHaveLength(30);
    } finally {
      await second.close();
    }
  });
});
