import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { renderEmail, stopSandboxProcess } from "../src/email-rendering/index.js";
import { BUILT_IN_EMAIL_TEMPLATES, EMAIL_VERIFICATION_TEMPLATE_ID } from "../src/email/built-in-templates.js";
import { LIGHT_EMAIL_THEME_SOURCE } from "../src/email/built-in-themes.js";
import { listeningSandbox } from "./support/email-sandbox.global.js";

// Issue 35: a test run's servers render in one sandbox process they share over a Unix socket (`sandbox-process.mjs
// --listen`, support/email-sandbox.global.ts) instead of forking one each. This file starts its own such process,
// not the run's: it ends it mid-render. No database: the renderer only.
vi.setConfig({ testTimeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), "latchkey-shared-sandbox-"));
const socket = join(dir, "sandbox.sock");
process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET = socket;
// A file before this one in the same worker thread may have left the renderer connected to the run's sandbox.
stopSandboxProcess();
const started: ChildProcess[] = [];
afterAll(() => {
  stopSandboxProcess();
  for (const child of started) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A listening sandbox of this file's own at `socket` (support/email-sandbox.global.ts starts the run's the same way). */
async function ownSandbox(): Promise<ChildProcess> {
  rmSync(socket, { force: true });
  const child = await listeningSandbox(socket, process.env, "ignore");
  started.push(child);
  return child;
}

const verificationMail = (projectId: string, link: string) =>
  renderEmail({
    themeSource: LIGHT_EMAIL_THEME_SOURCE,
    templateSource: BUILT_IN_EMAIL_TEMPLATES[EMAIL_VERIFICATION_TEMPLATE_ID]!.tsxSource,
    variables: { emailVerificationLink: link },
    project: { displayName: "Acme" },
    projectId,
  });

describe("a sandbox process shared over a socket", () => {
  it("renders for a server that did not fork one, and a render it drops fails cleanly until another listens", async () => {
    const first = await ownSandbox();
    const mail = await verificationMail("shared-a", "https://acme.test/v?code=1");
    expect(mail.subject).toBe("Verify your email at Acme");
    expect(mail.html).toContain('href="https://acme.test/v?code=1"');

    // Ended while a render of a project's own template is on its way (a new isolate: it takes a while): the render
    // fails, so it was this process's, not one the renderer forked. (Not read from the process tree: the other test
    // files' threads in this process fork sandboxes of their own meanwhile.)
    const custom = renderEmail({ themeSource: null, templateSource: "export function EmailTemplate() { return <p>custom</p>; }", project: { displayName: "Acme" }, projectId: "shared-b" });
    first.kill("SIGKILL");
    await expect(custom).rejects.toMatchObject({ code: "EMAIL_RENDERING_ERROR", message: expect.stringMatching(/stopped during the render|could not be reached/) });

    await ownSandbox();
    const again = await verificationMail("shared-a", "https://acme.test/v?code=2");
    expect(again.html).toContain('href="https://acme.test/v?code=2"');
  });
});
