import { describe, expect, it } from "vitest";
import { signInUser } from "../../src/services/sessions.js";
import { getProject } from "../../src/services/projects.js";
import { api, type ApiResponse } from "../support/api.js";
import * as emailFlow from "../support/email-flow-fixture.js";
import { type TestProject } from "../support/test-server.js";
import { server } from "../support/users-fixture.js";

// Issue 14: team invitations in each protocol version. 2.8.108 lists the invitations a user received (those
// addressed to their verified emails) and accepts them by id; its invitation reads name the team.
describe("team invitations in each dialect", () => {
  const { email, emailProject, useServerAndSmtpForFile } = emailFlow;
  useServerAndSmtpForFile();

  type Dialect = "2.8.41" | "2.8.108";
  interface Person {
    id: string;
    address: string;
    accessToken: string;
  }

  const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

  function request(dialect: Dialect, project: TestProject, access: "client" | "server", path: string, options: { method?: string; body?: unknown; as?: Person; anonymous?: boolean } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...project.headers(access), ...(options.as ? { "x-stack-access-token": options.as.accessToken } : {}) };
    if (options.anonymous) headers["x-stack-allow-anonymous-user"] = "true";
    const prefixed = dialect === "2.8.41" ? headers : Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));
    return api(emailFlow.server.url, path, { method: options.method, body: options.body, headers: prefixed });
  }

  /** A user whose primary email is verified (or not), signed in. */
  async function person(project: TestProject, verified = true): Promise<Person> {
    const address = email();
    const created = await request("2.8.41", project, "server", "/users", {
      method: "POST",
      body: { primary_email: address, primary_email_verified: verified, primary_email_auth_enabled: true },
    });
    expect(created.status, created.text).toBe(201);
    const tokens = await signInUser(emailFlow.server.db, emailFlow.server.env, { project: await getProject(emailFlow.server.db, project.projectId), userId: created.body.id });
    return { id: created.body.id, address, accessToken: tokens.access_token };
  }

  async function team(project: TestProject, name: string): Promise<string> {
    const created = await request("2.8.41", project, "server", "/teams", { method: "POST", body: { display_name: name } });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  async function invite(project: TestProject, teamId: string, to: string): Promise<string> {
    const sent = await request("2.8.41", project, "server", "/team-invitations/send-code", { method: "POST", body: { team_id: teamId, email: to, callback_url: INVITATION_PAGE } });
    expect(sent.status, sent.text).toBe(200);
    await emailFlow.smtp.nextMessage(to);
    return sent.body.id;
  }

  const members = async (teamId: string) => (await emailFlow.server.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).map((m) => m.user_id);

  describe("a team's invitations", () => {
    it("name the team for 2.8.108, and read as before for 2.8.41", async () => {
      const project = await emailProject();
      const teamId = await team(project, "Rocket Team");
      const address = email();
      const id = await invite(project, teamId, address);
      const older = await request("2.8.41", project, "server", `/team-invitations?team_id=${teamId}`);
      expect(older.body.items).toEqual([{ id, team_id: teamId, expires_at_millis: expect.any(Number), recipient_email: address }]);
      expect(Object.keys(older.body.items[0])).toEqual(["id", "team_id", "expires_at_millis", "recipient_email"]);
      const newer = await request("2.8.108", project, "server", `/team-invitations?team_id=${teamId}`);
      expect(newer.body.items).toEqual([{ ...older.body.items[0], team_display_name: "Rocket Team" }]);
    });

    it("still answers 2.8.41 without team_id as before, the missing field ahead of unknown ones", async () => {
      const project = await emailProject();
      const missing = await request("2.8.41", project, "server", "/team-invitations?extra=1");
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe("Request validation failed on GET /api/v1/team-invitations:\n  - query.team_id must be defined\n  - query contains unknown properties: extra");
      const userId = await request("2.8.41", project, "server", "/team-invitations?user_id=me");
      expect(userId.body.error).toBe("Request validation failed on GET /api/v1/team-invitations:\n  - query contains unknown properties: user_id");
    });
  });

  describe("the invitations a user received (2.8.108)", () => {
    it("lists the pending invitations addressed to the user's verified emails, oldest first", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const unverified = email();
      const channel = await request("2.8.41", project, "server", "/contact-channels", {
        method: "POST",
        body: { user_id: invitee.id, value: unverified, type: "email", used_for_auth: false, is_verified: false },
      });
      expect(channel.status, channel.text).toBe(201);
      const [rockets, birds] = [await team(project, "Rockets"), await team(project, "Birds")];
      const first = await invite(project, rockets, invitee.address.toUpperCase());
      await invite(project, birds, unverified);
      await invite(project, birds, email());
      const second = await invite(project, birds, invitee.address);

      const listed = await request("2.8.108", project, "client", "/team-invitations?user_id=me", { as: invitee });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual({
        items: [
          { id: first, team_id: rockets, team_display_name: "Rockets", expires_at_millis: expect.any(Number), recipient_email: invitee.address },
          { id: second, team_id: birds, team_display_name: "Birds", expires_at_millis: expect.any(Number), recipient_email: invitee.address },
        ],
        is_paginated: false,
      });
      const byServer = await request("2.8.108", project, "server", `/team-invitations?user_id=${invitee.id}`);
      expect(byServer.body).toEqual(listed.body);
    });

    it("lets a client list only its own user's invitations", async () => {
      const project = await emailProject();
      const [me, other] = [await person(project), await person(project)];
      const own = await request("2.8.108", project, "client", `/team-invitations?user_id=${me.id}`, { as: me });
      expect(own.status).toBe(200);
      const others = await request("2.8.108", project, "client", `/team-invitations?user_id=${other.id}`, { as: me });
      expect(others.status).toBe(403);
      expect(others.text).toBe('Client can only list team invitations for their own user. user_id must be either "me" or the ID of the current user');
      const nobody = await request("2.8.108", project, "client", "/team-invitations?user_id=me");
      expect(nobody.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
      const unknown = await request("2.8.108", project, "server", `/team-invitations?user_id=${crypto.randomUUID()}`);
      expect(unknown.body.code).toBe("USER_NOT_FOUND");
      const both = await request("2.8.108", project, "server", `/team-invitations?user_id=${me.id}&team_id=${crypto.randomUUID()}`);
      expect(both.body.error).toContain("query.user_id cannot be given together with team_id");
    });

    it("accepts one by id: the user joins the team, once, and it is no longer listed", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);

      const accepted = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body).toEqual({});
      expect(await members(teamId)).toEqual([invitee.id]);
      expect((await request("2.8.108", project, "client", "/team-invitations?user_id=me", { as: invitee })).body.items).toEqual([]);
      expect((await request("2.8.108", project, "server", `/team-invitations?team_id=${teamId}`)).body.items).toEqual([]);

      const again = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(again.status).toBe(404);
      expect(again.text).toBe("Team invitation not found.");
    });

    it("accepts for any user with server access, concurrently only once", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);
      const answers = await Promise.all([1, 2, 3].map(() => request("2.8.108", project, "server", `/team-invitations/${id}/accept?user_id=${invitee.id}`, { method: "POST" })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404]);
      expect(await members(teamId)).toEqual([invitee.id]);
    });

    it("refuses an invitation sent to an address the user has not verified", async () => {
      const project = await emailProject();
      const [invitee, unverifiedInvitee] = [await person(project), await person(project, false)];
      const teamId = await team(project, "Rockets");
      const elsewhere = await invite(project, teamId, email());
      const mismatch = await request("2.8.108", project, "client", `/team-invitations/${elsewhere}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(mismatch.status).toBe(403);
      expect(mismatch.body).toEqual({
        code: "TEAM_INVITATION_EMAIL_MISMATCH",
        error: "This team invitation was sent to a different email address. Sign in with the invited email, or add and verify that email on your account, then try again.",
      });
      const toUnverified = await invite(project, teamId, unverifiedInvitee.address);
      const unverified = await request("2.8.108", project, "client", `/team-invitations/${toUnverified}/accept?user_id=me`, { method: "POST", as: unverifiedInvitee });
      expect(unverified.body.code).toBe("TEAM_INVITATION_EMAIL_MISMATCH");
      expect(await members(teamId)).toEqual([]);
    });

    it("refuses a restricted user: an anonymous one", async () => {
      const project = await emailProject({ "auth.allowSignUp": true });
      const signedUp = await request("2.8.108", project, "client", "/auth/anonymous/sign-up", { method: "POST" });
      expect(signedUp.status, signedUp.text).toBe(200);
      const anonymous = { id: signedUp.body.user_id, address: "", accessToken: signedUp.body.access_token };
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, email());
      const refused = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: anonymous, anonymous: true });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED");
      expect(refused.body.details).toEqual({ restricted_reason: { type: "anonymous" } });
    });

    it("answers an unknown invitation id with a plain 404", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
        const answer = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
        expect(answer.status).toBe(404);
      }
    });

    it("does not exist for 2.8.41", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);
      const withUser = await request("2.8.41", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(withUser.body.error).toContain("query contains unknown properties: user_id");
      const withoutUser = await request("2.8.41", project, "client", `/team-invitations/${id}/accept`, { method: "POST", as: invitee });
      expect(withoutUser.body.error).toContain("query.user_id must be defined");
      expect(await members(teamId)).toEqual([]);
    });
  });
});
