import { describe, expect, it } from "vitest";
import { codeIn, email, emailProject, smtp, server, useServerAndSmtpForFile } from "./support/email-flow-fixture.js";
import { stackSdk } from "./support/stack-sdk.js";
import type { TestProject } from "./support/test-server.js";

// The published Stack Auth SDK (@stackframe/js@2.8.41), unchanged, through a team invitation: a team
// admin invites by email, the invited person reads the team's name from the code and accepts; pending
// invitations are listed and revoked. Mail goes to a real SMTP server started for the test.
useServerAndSmtpForFile();

const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

async function signedUpClient(project: TestProject, address = email()) {
  const app = stackSdk(server, project).client();
  const signUp = await app.signUpWithCredential({ email: address, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "https://app.example.com/handler/email-verification" });
  expect(signUp.status).toBe("ok");
  return { app, user: await app.getUser({ or: "throw" }) };
}

describe("team invitations through the published Stack SDK", () => {
  it("invites by email; the invited person sees the team, accepts and lists it among their teams", async () => {
    const project = await emailProject({ "teams.allowClientTeamCreation": true });
    const admin = await signedUpClient(project);
    const team = await admin.user.createTeam({ displayName: "Difference Engines" });

    const address = email();
    await team.inviteUser({ email: address, callbackUrl: INVITATION_PAGE });
    const code = codeIn(await smtp.nextMessage(address));
    const pending = await team.listInvitations();
    expect(pending.map((i) => i.recipientEmail)).toEqual([address]);

    const invited = await signedUpClient(project, address);
    expect(await invited.app.verifyTeamInvitationCode(code)).toMatchObject({ status: "ok" });
    const details = await invited.app.getTeamInvitationDetails(code);
    expect(details).toMatchObject({ status: "ok", data: { teamDisplayName: "Difference Engines" } });
    expect((await invited.app.acceptTeamInvitation(code)).status).toBe("ok");
    expect((await invited.user.listTeams()).map((t) => t.id)).toContain(team.id);
    expect(await team.listInvitations()).toEqual([]);

    // The SDK reports a used code as a known error, not a crash.
    const again = await invited.app.acceptTeamInvitation(code);
    expect(again.status).toBe("error");
  });

  it("revokes a pending invitation, whose link then accepts nobody", async () => {
    const project = await emailProject({ "teams.allowClientTeamCreation": true });
    const admin = await signedUpClient(project);
    const team = await admin.user.createTeam({ displayName: "Looms" });
    const address = email();
    await team.inviteUser({ email: address, callbackUrl: INVITATION_PAGE });
    const code = codeIn(await smtp.nextMessage(address));
    const [invitation] = await team.listInvitations();
    await invitation!.revoke();
    expect(await team.listInvitations()).toEqual([]);

    const invited = await signedUpClient(project, address);
    const refused = await invited.app.acceptTeamInvitation(code);
    expect(refused.status).toBe("error");
    expect((await invited.user.listTeams()).map((t) => t.id)).not.toContain(team.id);
  });
});
