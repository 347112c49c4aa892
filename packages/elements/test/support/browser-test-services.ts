import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from "../../../server/test/support/smtp-capture.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestServer } from "../../../server/test/support/test-server.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../../../server/src/services/projects.js";

/**
 * Node side of the browser-test harness: one real Latchkey server (in-memory PGlite) and one real SMTP
 * capture for the whole `web-test-runner` run, and the commands the browser-side `harness.ts` sends.
 * Loaded by web-test-runner.config.mjs through tsx, so the server runs from its TypeScript source.
 */

/** The names the browser side sends with `executeServerCommand`; the prefix keeps them apart from wtr's own. */
export const COMMANDS = {
  createProject: "latchkey:create-project",
  createUser: "latchkey:create-user",
  waitForMail: "latchkey:wait-for-mail",
  signInElsewhere: "latchkey:sign-in-elsewhere",
} as const;

export interface BrowserTestServices {
  baseUrl: string;
  /** Runs one harness command; undefined when the command is not ours (wtr then asks its other plugins). */
  execute(command: string, payload: unknown): Promise<unknown> | undefined;
  close(): Promise<void>;
}

export interface CapturedMailForBrowser {
  subject: string;
  text: string;
  html: string;
  links: string[];
  code: string | null;
}

export async function startBrowserTestServices(): Promise<BrowserTestServices> {
  // The server must not think it is in production: the test pages use localhost origins. Its public URL
  // is where it listens, so pages can show the profile images it serves.
  const [server, smtp] = await Promise.all([startTestServer({ LATCHKEY_DEV_MODE: "true", ...(await reachablePublicUrl()) }), startSmtpCapture()]);
  let projectCount = 0;

  const handlers: Record<string, (payload: never) => Promise<unknown>> = {
    [COMMANDS.createProject]: async (payload: { configOverride?: Record<string, unknown>; email?: boolean } | undefined) => {
      projectCount += 1;
      // A new project's defaults (password sign-in, localhost trusted, team roles) stay unless overridden.
      const configOverride = { ...NEW_PROJECT_CONFIG_OVERRIDE, ...(payload?.email ? emailConfig(smtp) : {}), ...payload?.configOverride };
      const project = await createTestProject(server, `Browser test ${projectCount}`, { configOverride });
      return { baseUrl: server.url, projectId: project.projectId, publishableClientKey: project.publishableClientKey, secretServerKey: project.secretServerKey };
    },
    [COMMANDS.createUser]: (payload: { project: ProjectKeys; user: UserInput }) => createUser(server, payload.project, payload.user),
    [COMMANDS.signInElsewhere]: (payload: { project: ClientKeys; email: string; password: string; userAgent: string }) => signInElsewhere(server, payload),
    [COMMANDS.waitForMail]: async (payload: { to: string; timeoutMs?: number }) => mailForBrowser(await smtp.nextMessage(payload.to, payload.timeoutMs ?? 10_000)),
  };

  return {
    baseUrl: server.url,
    execute(command, payload) {
      const handler = handlers[command];
      return handler ? handler(payload as never) : undefined;
    },
    async close() {
      await Promise.all([server.close(), smtp.close()]);
    },
  };
}

/** The project's own SMTP server is the capture, with password and one-time-code sign-in on. */
export function emailConfig(smtp: Pick<SmtpCapture, "host" | "port">): Record<string, unknown> {
  return {
    "emails.server": { isShared: false, host: smtp.host, port: smtp.port, username: "mailer", password: "secret", senderName: "Latchkey tests", senderEmail: "noreply@tests.example" },
    "auth.password.allowSignIn": true,
    "auth.otp.allowSignIn": true,
  };
}

interface ProjectKeys {
  projectId: string;
  secretServerKey: string;
}

interface UserInput {
  email: string;
  password?: string;
  displayName?: string;
  primaryEmailVerified?: boolean;
}

/** Creates the user as a customer's backend would: `POST /users` with the secret server key. */
async function createUser(server: TestServer, project: ProjectKeys, user: UserInput): Promise<{ userId: string }> {
  const response = await fetch(`${server.url}/api/v1/users`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-project-id": project.projectId,
      "x-stack-access-type": "server",
      "x-stack-secret-server-key": project.secretServerKey,
    },
    body: JSON.stringify({
      primary_email: user.email,
      primary_email_auth_enabled: true,
      primary_email_verified: user.primaryEmailVerified ?? false,
      ...(user.password === undefined ? {} : { password: user.password }),
      ...(user.displayName === undefined ? {} : { display_name: user.displayName }),
    }),
  });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) throw new Error(`POST /users answered ${response.status}: ${JSON.stringify(body)}`);
  return { userId: body.id };
}

interface ClientKeys {
  projectId: string;
  publishableClientKey: string;
}

/**
 * Signs the user in from another device than the test's browser (whose User-Agent a page cannot change):
 * a password sign-in sent from here with the given User-Agent, as that device's browser would send it.
 */
async function signInElsewhere(server: TestServer, payload: { project: ClientKeys; email: string; password: string; userAgent: string }): Promise<{ refreshToken: string }> {
  const response = await fetch(`${server.url}/api/v1/auth/password/sign-in`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": payload.userAgent,
      "x-stack-project-id": payload.project.projectId,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": payload.project.publishableClientKey,
    },
    body: JSON.stringify({ email: payload.email, password: payload.password }),
  });
  const body = (await response.json()) as { refresh_token?: string };
  if (!response.ok || !body.refresh_token) throw new Error(`POST /auth/password/sign-in answered ${response.status}: ${JSON.stringify(body)}`);
  return { refreshToken: body.refresh_token };
}

/**
 * What a person reads in a mail: its links (from the text part, in order, without duplicates) and the
 * 6-character one-time code when it carries one (a line of its own, as the sign-in mail prints it).
 */
export function mailForBrowser(mail: CapturedEmail): CapturedMailForBrowser {
  const links = [...new Set(mail.text.match(/https?:\/\/[^\s<>"()]+/g) ?? [])];
  const code = mail.text.match(/^\s*([A-Z0-9]{6})\s*$/m)?.[1] ?? null;
  return { subject: mail.subject, text: mail.text, html: mail.html, links, code };
}
