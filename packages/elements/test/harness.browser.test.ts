import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";

/**
 * The harness itself, from the page: a fresh project on the real server, the real API answering this
 * page's fetches (CORS, keys), users made with the secret key, and mail arriving at the SMTP capture.
 */

function clientHeaders(project: { projectId: string; publishableClientKey: string }): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-stack-project-id": project.projectId,
    "x-stack-access-type": "client",
    "x-stack-publishable-client-key": project.publishableClientKey,
  };
}

describe("browser-test harness", () => {
  it("gives a fresh project whose API answers this page", async () => {
    const project = await createProject();
    const response = await fetch(`${project.baseUrl}/api/v1/projects/current`, { headers: clientHeaders(project) });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { id: string; config: { credential_enabled: boolean } };
    expect(body.id).to.equal(project.projectId);
    expect(body.config.credential_enabled).to.equal(true);
  });

  it("creates a user who can then sign in with the password from this page", async () => {
    const project = await createProject();
    const email = uniqueEmail();
    const { userId } = await createUser(project, { email, password: "correct horse battery", displayName: "Ada", primaryEmailVerified: true });

    const signIn = await fetch(`${project.baseUrl}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: clientHeaders(project),
      body: JSON.stringify({ email, password: "correct horse battery" }),
    });
    expect(signIn.status).to.equal(200);
    const tokens = (await signIn.json()) as { user_id: string; access_token: string };
    expect(tokens.user_id).to.equal(userId);

    const me = await fetch(`${project.baseUrl}/api/v1/users/me`, { headers: { ...clientHeaders(project), "x-stack-access-token": tokens.access_token } });
    const user = (await me.json()) as { display_name: string; primary_email: string; primary_email_verified: boolean };
    expect(user).to.include({ display_name: "Ada", primary_email: email, primary_email_verified: true });
  });

  it("delivers the verification mail of a password sign-up, with a link back to this page", async () => {
    const project = await createProject({ email: true });
    const email = uniqueEmail();
    const callback = `${location.origin}/handler/email-verification`;
    const signUp = await fetch(`${project.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: clientHeaders(project),
      body: JSON.stringify({ email, password: "correct horse battery", verification_callback_url: callback }),
    });
    expect(signUp.status).to.equal(200);

    const mail = await waitForMail(email);
    expect(mail.subject.toLowerCase()).to.contain("verify");
    const link = mail.links.map((l) => new URL(l)).find((l) => l.pathname === "/handler/email-verification");
    expect(link, mail.text).to.not.equal(undefined);
    expect(link!.origin).to.equal(location.origin);
    expect(link!.searchParams.get("code")).to.match(/^[a-z0-9]{20,}$/i);
  });

  it("delivers a one-time sign-in code that signs the person in", async () => {
    const project = await createProject({ email: true });
    const email = uniqueEmail();
    const send = await fetch(`${project.baseUrl}/api/v1/auth/otp/send-sign-in-code`, {
      method: "POST",
      headers: clientHeaders(project),
      body: JSON.stringify({ email, callback_url: `${location.origin}/handler/magic-link-callback` }),
    });
    expect(send.status).to.equal(200);
    const { nonce } = (await send.json()) as { nonce: string };

    const mail = await waitForMail(email);
    expect(mail.code).to.match(/^[A-Z0-9]{6}$/);
    expect(mail.subject).to.contain(mail.code!);

    // The protocol's typed code is the mail's six characters followed by the nonce the page kept.
    const signIn = await fetch(`${project.baseUrl}/api/v1/auth/otp/sign-in`, {
      method: "POST",
      headers: clientHeaders(project),
      body: JSON.stringify({ code: mail.code!.toLowerCase() + nonce }),
    });
    expect(signIn.status).to.equal(200);
    expect(((await signIn.json()) as { is_new_user: boolean }).is_new_user).to.equal(true);
  });
});
