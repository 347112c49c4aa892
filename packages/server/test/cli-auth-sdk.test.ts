import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

// The published Stack SDK (@stackframe/js@2.8.41), unchanged, as a command-line tool would use it:
// `promptCliLogin` starts the flow, prints the confirmation URL and polls until a person confirms it.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const APP_URL = "https://app.example.com";

/** `promptCliLogin`'s options as 2.8.41's implementation reads them; its published types list only the first two. */
interface CliLoginOptions {
  appUrl: string;
  expiresInMillis?: number;
  maxAttempts?: number;
  waitTimeMillis?: number;
  promptLink?: (url: string) => void;
}
const promptCliLogin = (app: ReturnType<ReturnType<typeof stackSdk>["client"]>, options: CliLoginOptions) =>
  app.promptCliLogin(options as Parameters<typeof app.promptCliLogin>[0]);

describe("the published Stack SDK's CLI login", () => {
  it("gets the refresh token of the person who confirmed the printed URL", async () => {
    const project = await createTestProject(server);
    const browser = stackSdk(server, project).client();
    await browser.signUpWithCredential({ email: `person-${crypto.randomUUID()}@example.com`, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
    const person = await browser.getUser({ or: "throw" });
    const { refreshToken } = await person.currentSession.getTokens();

    const cli = stackSdk(server, project).client();
    const confirmations: Promise<unknown>[] = [];
    const result = await promptCliLogin(cli, {
      appUrl: APP_URL,
      waitTimeMillis: 50,
      maxAttempts: 100,
      promptLink: (url) => {
        // The person opens the URL: the confirmation page completes the login code with their session.
        const link = new URL(url);
        expect(`${link.origin}${link.pathname}`).toBe(`${APP_URL}/handler/cli-auth-confirm`);
        const loginCode = link.searchParams.get("login_code")!;
        confirmations.push(
          api(server.url, "/auth/cli/complete", { method: "POST", headers: project.headers("client"), body: { login_code: loginCode, refresh_token: refreshToken } }),
        );
      },
    });
    expect(confirmations).toHaveLength(1);
    expect(((await confirmations[0]) as { status: number }).status).toBe(200);
    if (result.status !== "ok") throw result.error;

    // The CLI signs in with the token it got.
    const refreshed = await api(server.url, "/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...project.headers("client"), "x-stack-refresh-token": result.data },
    });
    const tokenStore = { accessToken: refreshed.body.access_token as string, refreshToken: result.data };
    const cliUser = await stackSdk(server, project).client().getUser({ or: "throw", tokenStore });
    expect(cliUser.id).toBe(person.id);
  });

  it("reports an expired request with the SDK's message", async () => {
    const project = await createTestProject(server);
    const cli = stackSdk(server, project).client();
    const result = await promptCliLogin(cli, { appUrl: APP_URL, expiresInMillis: 1, waitTimeMillis: 20, maxAttempts: 5, promptLink: () => {} });
    expect(result.status).toBe("error");
    if (result.status === "error") {
      expect(result.error.message).toContain("CLI authentication request expired. Please try again.");
    }
  });

  it("gives up after the attempts it was allowed", async () => {
    const project = await createTestProject(server);
    const cli = stackSdk(server, project).client();
    const result = await promptCliLogin(cli, { appUrl: APP_URL, waitTimeMillis: 10, maxAttempts: 3, promptLink: () => {} });
    expect(result.status === "error" && result.error.message).toContain("Timed out waiting for CLI authentication.");
  });
});
