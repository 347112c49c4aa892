import { DEFAULT_EMAIL_TEMPLATES, DEFAULT_EMAIL_THEMES, DEFAULT_TEMPLATE_IDS, emptyEmailTheme, previewTemplateSource } from "@stackframe/stack-shared/dist/helpers/emails";
import { afterAll, describe, expect, it } from "vitest";
import { renderEmail, stopSandboxProcess, type EmailRenderInput } from "../src/email-rendering/index.js";

// Issue 19, rendering: the reference's own default themes and templates (what projects have and what the config
// lists) rendered by our sandboxed renderer, and every sandbox limit ending in a clean EMAIL_RENDERING_ERROR while
// the renderer keeps working. No database: the renderer is a pure function of its input.
// A sandbox process of this file's own, not the run's shared one (support/email-sandbox.global.ts): these tests
// stop it, and push it to its limits.
delete process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET;
afterAll(() => stopSandboxProcess());

const THEMES = Object.values(DEFAULT_EMAIL_THEMES).map((theme) => ({ name: theme.displayName, source: theme.tsxSource }));
const template = (id: keyof typeof DEFAULT_TEMPLATE_IDS) => DEFAULT_EMAIL_TEMPLATES[DEFAULT_TEMPLATE_IDS[id]]!.tsxSource;
const LIGHT = THEMES.find((theme) => theme.name === "Default Light")!.source;
const project = { displayName: "Acme" };
// One warm sandbox for the bulk of the file: the libraries load once.
const projectId = "email-rendering-test";

const CASES = [
  {
    id: "email_verification",
    variables: { emailVerificationLink: "https://acme.test/verify?code=verify-code-123" },
    subject: "Verify your email at Acme",
    expected: ["https://acme.test/verify?code=verify-code-123", "verify-code-123"],
  },
  {
    id: "password_reset",
    variables: { passwordResetLink: "https://acme.test/reset?code=reset-code-456" },
    subject: "Reset your password at Acme",
    expected: ["https://acme.test/reset?code=reset-code-456", "reset-code-456"],
  },
  {
    id: "magic_link",
    variables: { magicLink: "https://acme.test/magic?code=magic-code-789", otp: "Q7X2KP" },
    subject: "Sign in to Acme: Your code is Q7X2KP",
    expected: ["https://acme.test/magic?code=magic-code-789", "Q7X2KP"],
  },
  {
    id: "team_invitation",
    variables: { teamDisplayName: "Rocket Team", teamInvitationLink: "https://acme.test/join?code=team-code-321" },
    subject: "You have been invited to join Rocket Team",
    expected: ["https://acme.test/join?code=team-code-321", "Rocket Team"],
  },
  {
    id: "sign_in_invitation",
    variables: { signInInvitationLink: "https://acme.test/invite?code=invite-code-654", teamDisplayName: "Rocket Team" },
    subject: "You have been invited to sign in to Acme",
    expected: ["https://acme.test/invite?code=invite-code-654", "Rocket Team"],
  },
] as const;

async function renderError(input: EmailRenderInput): Promise<{ code: string; status: number; message: string }> {
  try {
    await renderEmail(input);
  } catch (error) {
    const known = error as { code?: string; statusCode?: number; message: string };
    return { code: known.code ?? "", status: known.statusCode ?? 0, message: known.message };
  }
  throw new Error("the render was expected to fail");
}

async function expectStillRendering(id = projectId) {
  const rendered = await renderEmail({ themeSource: LIGHT, templateSource: template("email_verification"), project, projectId: id, variables: CASES[0].variables });
  expect(rendered.subject).toBe("Verify your email at Acme");
}

describe("the reference's default templates in the default themes", () => {
  for (const theme of THEMES) {
    for (const mail of CASES) {
      it(`${mail.id} in ${theme.name}`, async () => {
        const rendered = await renderEmail({
          themeSource: theme.source,
          templateSource: template(mail.id),
          variables: mail.variables,
          user: { displayName: "Ada" },
          project,
          projectId,
        });
        expect(rendered.subject).toBe(mail.subject);
        expect(rendered.notificationCategory).toBe("Transactional");
        expect(rendered.html.startsWith("<!DOCTYPE html")).toBe(true);
        for (const text of mail.expected) {
          expect(rendered.html).toContain(text);
          // html-to-text writes headings in capitals.
          expect(rendered.text.toLowerCase()).toContain(text.toLowerCase());
        }
        expect(rendered.text).toContain("Hi, Ada!");
        // Tailwind classes became inline styles; the theme's colours differ.
        expect(rendered.html).not.toContain('className="');
        expect(rendered.html).toContain(theme.name === "Default Light" ? "rgb(250,251,251)" : "rgb(50,50,50)");
      });
    }
  }
});

describe("rendering", () => {
  it("escapes variables and the user's name in the HTML", async () => {
    const rendered = await renderEmail({
      themeSource: LIGHT,
      templateSource: template("team_invitation"),
      variables: { teamDisplayName: "<b>Team</b>", teamInvitationLink: "https://acme.test/join?a=1&b=<x>" },
      user: { displayName: "<script>alert(1)</script>" },
      project,
      projectId,
    });
    expect(rendered.html).not.toContain("<script>");
    expect(rendered.html).not.toContain("<b>Team</b>");
    expect(rendered.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(rendered.html).toContain("&lt;b&gt;Team&lt;/b&gt;");
    expect(rendered.html).toContain('href="https://acme.test/join?a=1&amp;b=&lt;x&gt;"');
    expect(rendered.text).toContain("Hi, <script>alert(1)</script>!");
  });

  it("renders a template without a theme, and a user without a name", async () => {
    const rendered = await renderEmail({ themeSource: null, templateSource: template("password_reset"), variables: CASES[1].variables, project, user: null, projectId });
    expect(rendered.subject).toBe("Reset your password at Acme");
    // The reference's skeleton for theme-less mail (issue 29 §5), with no theme's markup in it.
    expect(rendered.html).toMatch(/^<!DOCTYPE html [^>]*><html dir="ltr" lang="en"><head><\/head><body><div class="bg-white/);
    expect(rendered.html).not.toContain("<html lang");
    expect(rendered.html).toContain("https://acme.test/reset?code=reset-code-456");
    expect(rendered.text).toContain("Hi! Please click");
  });

  it("puts the unsubscribe link in the theme", async () => {
    const rendered = await renderEmail({ ...base(), unsubscribeLink: "https://acme.test/unsubscribe?code=u-1" });
    expect(rendered.html).toContain('href="https://acme.test/unsubscribe?code=u-1"');
    expect(rendered.text).toContain("to unsubscribe from these emails");
    const without = await renderEmail(base());
    expect(without.text).not.toContain("unsubscribe");
  });

  it("uses the preview variables and theme props in preview mode", async () => {
    const rendered = await renderEmail({ themeSource: LIGHT, templateSource: template("magic_link"), project, previewMode: true, projectId });
    expect(rendered.subject).toBe("Sign in to Acme: Your code is 3SLSWZ");
    expect(rendered.html).toContain("&lt;magic link&gt;");
    expect(rendered.html).toContain('href="https://example.com"');
    // Given variables still win over the preview ones.
    const given = await renderEmail({ themeSource: LIGHT, templateSource: template("magic_link"), project, previewMode: true, variables: { otp: "ABC123" }, projectId });
    expect(given.subject).toBe("Sign in to Acme: Your code is ABC123");
  });

  it("renders the reference's preview template in its empty theme", async () => {
    // `variablesSchema = v => v`, no subject, Heading/Row/Column/Button/Link, and a theme typed with React.ReactNode.
    const rendered = await renderEmail({ themeSource: emptyEmailTheme, templateSource: previewTemplateSource, project, previewMode: true, projectId });
    expect(rendered.subject).toBeNull();
    expect(rendered.notificationCategory).toBeNull();
    expect(rendered.html).toContain("<h2");
    expect(rendered.html).toContain('href="https://example.com"');
    expect(rendered.text).toContain("Body text content with some additional information.");
  });

  it("highlights code with React Email's CodeBlock, whose Prism languages are defined before its first render", async () => {
    // Issue 35: the languages are not defined while the libraries load (most of a new isolate's start), but before
    // the first render that mentions CodeBlock, outside its 1 s of CPU (on a slow machine they took more alone).
    const codeBlock = (language: string, code: string) =>
      `import { CodeBlock, dracula } from "@react-email/components";\nexport function EmailTemplate() {\nreturn <CodeBlock language=${JSON.stringify(language)} theme={dracula} code={${JSON.stringify(code)}} />;\n}`;
    const projectId = "email-rendering-code-block";
    const python = await renderEmail({ themeSource: null, templateSource: codeBlock("python", "def greet():\n    return 'hi'  # says hi"), project, projectId });
    expect(python.html).toContain('<span style="color:#8be9fd">def</span>'); // dracula's keyword colour
    expect(python.html).toContain('<span style="color:#50fa7b">&#x27;hi&#x27;</span>'); // its string colour
    expect(python.html).toContain('<span style="color:#6272a4"># says hi</span>'); // its comment colour
    expect(python.text).toContain("greet");
    // A language Prism extends from others (TypeScript from JavaScript), in the same warm isolate.
    const typescript = await renderEmail({ themeSource: null, templateSource: codeBlock("typescript", "interface User { name: string }"), project, projectId });
    expect(typescript.html).toContain('<span style="color:#8be9fd">interface</span>');
    // The component's own error for a language Prism does not know.
    const unknown = await renderError({ themeSource: null, templateSource: codeBlock("no-such-language", "x"), project, projectId });
    expect(unknown.code).toBe("EMAIL_RENDERING_ERROR");
    expect(unknown.message).toContain("CodeBlock: There is no language defined on Prism called no-such-language");
  });

  it("imports from @latchkey/emails as from @stackframe/emails", async () => {
    const source = template("email_verification").replace('from "@stackframe/emails"', 'from "@latchkey/emails"');
    expect(source).toContain("@latchkey/emails");
    const rendered = await renderEmail({ ...base(), templateSource: source });
    expect(rendered.subject).toBe("Verify your email at Acme");
  });
});

function base(): EmailRenderInput {
  return { themeSource: LIGHT, templateSource: template("email_verification"), variables: CASES[0].variables, project, projectId };
}

describe("errors", () => {
  it("names the line and column of a compile error", async () => {
    const error = await renderError({ ...base(), templateSource: 'import { Section } from "@react-email/components";\n\nexport function EmailTemplate() {\n  return <Section>{</Section>;\n}\n' });
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Failed to render email with theme: could not compile the template at line 4, column \d+: /);
  });

  it("names a compile error in the theme", async () => {
    const error = await renderError({ ...base(), themeSource: "export function EmailTheme({ children }) {\n  return <div>{children}</span>;\n}" });
    expect(error.message).toMatch(/could not compile the theme at line 2, column \d+/);
  });

  it("reports a missing EmailTemplate or EmailTheme export", async () => {
    const noTemplate = await renderError({ ...base(), templateSource: "export function Email() { return <p>hi</p>; }" });
    expect(noTemplate.code).toBe("EMAIL_RENDERING_ERROR");
    expect(noTemplate.message).toContain("the template does not export a function EmailTemplate");
    const noTheme = await renderError({ ...base(), themeSource: "export const Theme = 1;" });
    expect(noTheme.message).toContain("the theme does not export a function EmailTheme");
  });

  it("reports a runtime error with its message", async () => {
    const error = await renderError({ ...base(), templateSource: 'export function EmailTemplate() { throw new Error("boom at runtime"); }' });
    expect(error.message).toContain("boom at runtime");
    await expectStillRendering();
  });

  it("validates variables against the template's variablesSchema", async () => {
    const error = await renderError({ ...base(), variables: {} });
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message).toContain("variablesSchema");
    expect(error.message).toContain("emailVerificationLink");
    const wrongType = await renderError({ ...base(), variables: { emailVerificationLink: 42 } });
    expect(wrongType.message).toContain("emailVerificationLink must be a string");
  });
});

describe("sandbox limits", () => {
  const templateBody = (body: string) => `export function EmailTemplate() {\n${body}\nreturn <p>done</p>;\n}`;
  const attempt = (body: string, id: string | null = projectId) =>
    renderError({ themeSource: null, templateSource: templateBody(body), project, projectId: id });

  it("stops an infinite loop after 1 s", async () => {
    const error = await attempt("while (true) {}");
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message).toContain("the render ran longer than 1 s");
    await expectStillRendering();
  });

  it("stops a huge allocation at 64 MB", async () => {
    const error = await attempt("const chunks = []; while (true) chunks.push(new Array(1_000_000).fill(chunks.length));");
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message).toContain("more than 64 MB of memory");
    await expectStillRendering();
  });

  it("ends a runaway recursion in a clean error", async () => {
    const error = await attempt("const deeper = (n) => deeper(n + 1) + 1; deeper(0);");
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message).toMatch(/Maximum call stack size exceeded|ran out of memory|stopped during the render/);
    await expectStillRendering();
  });

  it("answers renders in flight when the sandbox process dies, and starts a new one", async () => {
    const inFlight = attempt("while (true) {}");
    // Let the request reach the process, then kill it (as a V8 fatal error would).
    await new Promise((resolve) => setTimeout(resolve, 100));
    stopSandboxProcess();
    const error = await inFlight;
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message).toMatch(/stopped during the render|could not be reached|ran longer than 1 s/);
    await expectStillRendering();
  });

  it("has no require, fetch, process or timers", async () => {
    expect((await attempt('require("node:fs");')).message).toContain('imports "node:fs", which is not available');
    expect((await renderError({ themeSource: null, templateSource: 'import { readFileSync } from "fs";\n' + templateBody("readFileSync('/etc/passwd');"), project, projectId })).message).toContain('imports "fs"');
    expect((await attempt('fetch("http://127.0.0.1/");')).message).toContain("fetch is not defined");
    expect((await attempt("process.exit(1);")).message).toContain("process is not defined");
    expect((await attempt("setTimeout(() => {}, 10);")).message).toContain("setTimeout is not defined");
    await expectStillRendering();
  });

  it("stops a render that waits 20 s for something that never comes", async () => {
    // The render waits for what a suspended component hands it; this promise never settles. Waiting is counted
    // as such: a render merely slowed down by a busy machine (the sandbox runs at a lower priority) is not.
    const error = await attempt('globalThis.__latchkeySuspend(new Promise(() => {})); throw new Error("suspended");');
    expect(error.message).toContain("the render waited more than 20 s for something that never came");
    await expectStillRendering();
  }, 60_000);

  it("stops work a template queues to run after its render", async () => {
    const error = await attempt("Promise.resolve().then(() => { while (true) {} });");
    expect(error.message).toContain("the render ran longer than 1 s");
    await expectStillRendering();
  });

  it("leaves nothing behind for another render to read", async () => {
    const leaker = templateBody(`
      const secret = "secret-of-" + user.displayName;
      try { globalThis.leaked = secret; } catch {}
      try { Object.prototype.leakedOnPrototype = secret; } catch {}
      try { Array.prototype.push.leaked = secret; } catch {}`).replace("EmailTemplate()", "EmailTemplate({ user })");
    const reader = `export function EmailTemplate() {
      const found = [globalThis.leaked, ({}).leakedOnPrototype, Array.prototype.push.leaked].map(String).join(",");
      return <p>{"found:" + found}</p>;
    }`;
    await renderEmail({ themeSource: null, templateSource: leaker, project, user: { displayName: "Ada" }, projectId: "project-a" });
    for (const id of ["project-a", "project-b", null]) {
      const read = await renderEmail({ themeSource: null, templateSource: reader, project, projectId: id });
      expect(read.text, `read in ${id}`).toBe("found:undefined,undefined,undefined");
    }
  });

  it("gives a render without a project id a fresh sandbox with the same limits", async () => {
    const error = await attempt("while (true) {}", null);
    expect(error.message).toContain("the render ran longer than 1 s");
    const rendered = await renderEmail({ ...base(), projectId: null });
    expect(rendered.subject).toBe("Verify your email at Acme");
  });
});
