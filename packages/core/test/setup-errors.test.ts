import { afterEach, describe, expect, it, vi } from "vitest";
import { createClientApp } from "../src/apps/client-app.js";
import { createServerApp } from "../src/apps/server-app.js";
import { InsecureContextError } from "../src/flows/pkce.js";
import { isSetupError } from "../src/http/setup-errors.js";
import { clientAppFor, createTestProject, useLiveServer } from "./support/live-server.js";

/**
 * Issue 31's "errors that say what to fix", on the core's side, against a real server: a setup mistake reaches the
 * developer in the console, in words naming the app's options (once), while the error itself keeps the wire's code
 * and text; a baseUrl given with /api/v1 works; OAuth on a page without crypto.subtle says why it cannot start.
 */
const live = useLiveServer();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** What the app wrote to the console with `method`, as one string per call. */
function consoleCalls(method: "error" | "warn") {
  const spy = vi.spyOn(console, method).mockImplementation(() => {});
  return () => spy.mock.calls.map((args) => args.join(" "));
}

describe("a wrong project id or key", () => {
  it("keeps the wire's error and tells the developer once, in the console, which option to check", async () => {
    const errors = consoleCalls("error");
    const app = createClientApp({ projectId: "no-such-project", publishableClientKey: "pck_whatever", baseUrl: live.server().url, tokenStore: "memory" });
    for (let i = 0; i < 2; i++) {
      const error = await app.getProject().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CURRENT_PROJECT_NOT_FOUND" });
      expect((error as Error).message).toContain("x-stack-project-id");
      expect(isSetupError(error)).toBe(true);
    }
    expect(errors()).toEqual([`Latchkey: no project "no-such-project" at ${live.server().url}: check projectId (CURRENT_PROJECT_NOT_FOUND)`]);
  });

  it("names the publishable client key when the key is not the project's", async () => {
    const errors = consoleCalls("error");
    const project = await createTestProject(live.server());
    const { app } = clientAppFor(live.server(), project, { publishableClientKey: "pck_not-this-projects-key" });
    const error = await app.getProject().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_PUBLISHABLE_CLIENT_KEY" });
    expect(isSetupError(error)).toBe(true);
    expect(errors()).toEqual([`Latchkey: publishableClientKey is not a key of project "${project.projectId}" (INVALID_PUBLISHABLE_CLIENT_KEY)`]);
  });

  it("names the page's origin and the project's Domains page when the origin is not trusted", async () => {
    const errors = consoleCalls("error");
    const project = await createTestProject(live.server());
    const page = "https://shop.example/handler/sign-up";
    vi.stubGlobal("location", { origin: "https://shop.example", href: page });
    const { app } = clientAppFor(live.server(), project, { page });
    const error = await app.signUpWithCredential({ email: "ada@example.com", password: "correct horse battery", noRedirect: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "REDIRECT_URL_NOT_WHITELISTED" });
    expect(errors()).toEqual([
      `Latchkey: https://shop.example is not a trusted domain: add it at ${live.server().url}/dashboard/projects/${project.projectId}/domains (REDIRECT_URL_NOT_WHITELISTED)`,
    ]);
  });

  it("is not told to the console by a server app, whose caller gets the error itself", async () => {
    const errors = consoleCalls("error");
    const app = createServerApp({ projectId: "no-such-project", secretServerKey: "ssk_whatever", baseUrl: live.server().url, tokenStore: "memory" });
    await expect(app.listUsers()).rejects.toMatchObject({ code: "CURRENT_PROJECT_NOT_FOUND" });
    expect(errors()).toEqual([]);
  });

  it("leaves errors a person causes alone", async () => {
    const errors = consoleCalls("error");
    const project = await createTestProject(live.server());
    const { app } = clientAppFor(live.server(), project);
    const error = await app.signInWithCredential({ email: "nobody@example.com", password: "wrong password", noRedirect: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "EMAIL_PASSWORD_MISMATCH" });
    expect(isSetupError(error)).toBe(false);
    expect(errors()).toEqual([]);
  });
});

describe("a baseUrl ending in /api/v1", () => {
  it("is taken without it, and the console says so once", async () => {
    const warnings = consoleCalls("warn");
    const project = await createTestProject(live.server());
    for (const baseUrl of [`${live.server().url}/api/v1`, `${live.server().url}/api/v1/`]) {
      const { app } = clientAppFor(live.server(), project, { baseUrl });
      expect((await app.getProject()).id).toBe(project.projectId);
    }
    expect(warnings()).toEqual([`Latchkey: baseUrl is without /api/v1: using ${live.server().url}`]);
  });
});

describe("OAuth on a page that is not a secure context", () => {
  it("says, and logs, that HTTPS or localhost is needed instead of failing on crypto.subtle", async () => {
    const project = await createTestProject(live.server());
    const { app } = clientAppFor(live.server(), project, { page: "http://192.168.1.20:3000/handler/sign-in" });
    // What a plain-http page that is not localhost has: getRandomValues, and no crypto.subtle.
    const real = globalThis.crypto;
    vi.stubGlobal("crypto", { getRandomValues: real.getRandomValues.bind(real) });
    vi.stubGlobal("location", { origin: "http://192.168.1.20:3000", href: "http://192.168.1.20:3000/handler/sign-in", assign: () => {} });
    const errors = consoleCalls("error");
    const error = await app.signInWithOAuth("github").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsecureContextError);
    expect(errors()).toEqual([`Latchkey: ${(error as Error).message}`]);
    expect((error as Error).message).toMatch(/^http:\/\/192\.168\.1\.20:3000 is not a secure context .*: use HTTPS or localhost\.$/);
  });
});
