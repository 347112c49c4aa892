import { executeServerCommand } from "@web/test-runner-commands";

/**
 * Browser side of the test harness: asks the web-test-runner process (web-test-runner.config.mjs) for
 * fresh projects, users and captured mail on the one real Latchkey server and SMTP capture it runs.
 * The command names match packages/elements/test/support/browser-test-services.ts (kept apart so this
 * module stays free of Node imports).
 */

export interface BrowserTestProject {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
}

export interface CapturedMail {
  subject: string;
  text: string;
  html: string;
  /** The links of the text part, in order. */
  links: string[];
  /** The 6-character one-time code of a sign-in mail, else null. */
  code: string | null;
}

/** A fresh project on the real server; `email: true` configures its email to the SMTP capture. The page's origin is trusted (allow_localhost). */
export function createProject(options: { configOverride?: Record<string, unknown>; email?: boolean } = {}): Promise<BrowserTestProject> {
  return executeServerCommand<BrowserTestProject, typeof options>("latchkey:create-project", options);
}

/** Creates a user through the server API (secret key): returns its id. */
export function createUser(
  project: BrowserTestProject,
  user: { email: string; password?: string; displayName?: string; primaryEmailVerified?: boolean },
): Promise<{ userId: string }> {
  return executeServerCommand("latchkey:create-user", { project: { projectId: project.projectId, secretServerKey: project.secretServerKey }, user });
}

/** Signs the user in by password from another device, whose browser sends `userAgent` (the page's own cannot be changed). */
export function signInElsewhere(project: BrowserTestProject, user: { email: string; password: string; userAgent: string }): Promise<{ refreshToken: string }> {
  return executeServerCommand("latchkey:sign-in-elsewhere", { project: { projectId: project.projectId, publishableClientKey: project.publishableClientKey }, ...user });
}

/** Waits (≤ 10 s) for the next captured mail to `to` and returns it with the links and the 6-character code it carries. */
export function waitForMail(to: string): Promise<CapturedMail> {
  return executeServerCommand("latchkey:wait-for-mail", { to });
}

/** A unique address per call, so tests sharing the run's one SMTP capture never read each other's mail. */
export function uniqueEmail(prefix = "person"): string {
  return `${prefix}-${crypto.randomUUID()}@example.com`;
}
