import { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES, DEFAULT_TEMPLATE_IDS } from "@stackframe/stack-shared/dist/helpers/emails";
import { afterAll, describe, expect, it, vi } from "vitest";
import { renderEmail, stopSandboxProcess } from "../src/email-rendering/index.js";

// Issue 30 §2: `Array.prototype.push = () => 0` in one render broke every later render of that project (React
// #426), and a property set on `React.Children` was read back by the next render. Each render of a project's warm
// sandbox now starts from the state the libraries loaded into; and projects never share a sandbox. No database.
// A sandbox process of this file's own, not the run's shared one (support/email-sandbox.global.ts): these tests
// stop it, and push it to its limits.
delete process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET;
afterAll(() => stopSandboxProcess());
// Most tests here start a project's sandbox cold (it loads React, Tailwind and arktype), some two or three: on a
// loaded 2-core machine that alone can take most of the default 30 s.
vi.setConfig({ testTimeout: 120_000 });

const project = { displayName: "Acme" };
const LIGHT = Object.values(DEFAULT_EMAIL_THEMES).find((theme) => theme.displayName === "Default Light")!.tsxSource;
const VERIFICATION = DEFAULT_EMAIL_TEMPLATES[DEFAULT_TEMPLATE_IDS.email_verification]!.tsxSource;

/** The reference's verification mail in its Default Light theme: React, Tailwind and arktype all at work. */
async function expectVerificationMail(projectId: string) {
  const rendered = await renderEmail({ themeSource: LIGHT, templateSource: VERIFICATION, variables: { emailVerificationLink: "https://acme.test/v?code=1" }, project, projectId });
  expect(rendered.subject).toBe("Verify your email at Acme");
  expect(rendered.html).toContain('href="https://acme.test/v?code=1"');
  expect(rendered.text).toContain("Hi! Please click on the following button");
}

/** Runs `body` in a template (whatever it then renders, or fails with, is its own business). */
async function renderChanging(projectId: string, body: string) {
  const templateSource = `import * as React from "react";\nimport * as Components from "@react-email/components";\nimport { type } from "arktype";\nexport function EmailTemplate({ user }) {\n${body}\nreturn <p>changed</p>;\n}`;
  await renderEmail({ themeSource: null, templateSource, project, user: { displayName: "Ada" }, projectId }).catch(() => undefined);
}

/** What a later render sees: each expression's value, as text. */
async function readBack(projectId: string | null, expressions: string[]): Promise<string[]> {
  const templateSource = `import * as React from "react";\nimport * as Components from "@react-email/components";\nimport { type } from "arktype";\nexport function EmailTemplate() {\nconst seen = [${expressions.map((e) => `(() => { try { return String(${e}); } catch (error) { return "threw " + error.message; } })()`).join(", ")}];\nreturn <p>{seen.join("|")}</p>;\n}`;
  const rendered = await renderEmail({ themeSource: null, templateSource, project, projectId });
  return rendered.text.split("|");
}

describe("a render changing the built-ins", () => {
  it("does not break the next render of the project (the issue's Array.prototype.push)", async () => {
    await expectVerificationMail("state-push");
    await renderChanging("state-push", "Array.prototype.push = () => 0;");
    await expectVerificationMail("state-push");
    await renderChanging("state-push", "Array.prototype.push = () => 0; Object.prototype.toString = () => 'x'; String.prototype.replace = () => 'x'; JSON.stringify = () => 'x'; Promise.prototype.then = () => undefined;");
    await expectVerificationMail("state-push");
  });

  it("gives the project a fresh sandbox when a built-in was made read-only", async () => {
    await renderChanging("state-read-only", 'Object.defineProperty(Array.prototype, "push", { value: () => 0, writable: false });');
    await expectVerificationMail("state-read-only");
  });

  it("cannot add to the built-ins or the global object", async () => {
    await renderChanging("state-add", "globalThis.leaked = user.displayName; Object.prototype.leaked = user.displayName; Array.prototype.push.leaked = user.displayName; Math.leaked = user.displayName;");
    expect(await readBack("state-add", ["globalThis.leaked", "({}).leaked", "Array.prototype.push.leaked", "Math.leaked"])).toEqual(["undefined", "undefined", "undefined", "undefined"]);
  });
});

describe("a render changing the libraries", () => {
  it("leaves nothing it set on React.Children (the issue's case) or other exports for the next render", async () => {
    await renderChanging(
      "state-react",
      "React.Children.leaked = user.displayName; React.leaked = user.displayName; React.default.leaked = user.displayName; Components.Button.leaked = user.displayName; type.leaked = user.displayName;",
    );
    expect(await readBack("state-react", ["React.Children.leaked", "React.leaked", "React.default.leaked", "Components.Button.leaked", "type.leaked"])).toEqual(Array(5).fill("undefined"));
  });

  it("puts back library functions it replaced", async () => {
    await renderChanging("state-replace", 'React.Children.toArray = () => ["hijacked"]; React.default.createElement = () => null; Components.Button.render = () => "hijacked";');
    expect(await readBack("state-replace", ['React.Children.toArray(["a", "b"]).join("+")', 'React.isValidElement(React.default.createElement("p", null))'])).toEqual(["a+b", "true"]);
    await expectVerificationMail("state-replace");
  });

  it("puts back React's internal state it changed", async () => {
    const internals = "React.__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE";
    await renderChanging("state-internals", `for (const key of Object.keys(${internals})) ${internals}[key] = () => { throw new Error("poisoned " + key); };`);
    await expectVerificationMail("state-internals");
  });
});

describe("projects", () => {
  it("never see each other's state, even what a project's own sandbox keeps between its renders", async () => {
    // arktype's registry grows as schemas are compiled, so it stays writable within a project's sandbox; another
    // project's sandbox is another isolate.
    await renderChanging(
      "state-project-a",
      "globalThis.$ark.leaked = user.displayName; Array.prototype.push = () => 0; React.Children.leaked = user.displayName; Object.defineProperty(Array.prototype, 'map', { value: () => [], writable: false });",
    );
    for (const projectId of ["state-project-b", null]) {
      expect(await readBack(projectId, ["globalThis.$ark.leaked", "React.Children.leaked", "[1, 2].map((n) => n * 2).join()"]), `read in ${projectId}`).toEqual(["undefined", "undefined", "2,4"]);
    }
    await expectVerificationMail("state-project-b");
    await expectVerificationMail("state-project-a");
  });
});
