import { afterAll, describe, expect, it } from "vitest";
import { renderEmail, stopSandboxProcess, type EmailRenderInput } from "../src/email-rendering/index.js";

// Issue 30 §1: one 300-byte template that threw a 30 MB error got a 57 MB answer, and a 15.6 MB render went out
// whole. Everything that leaves the sandbox is now bounded there — the HTML and the plain text (1,000,000
// characters each), the subject (1,000), the notification category (200) and error messages (2,000, cut with
// "…") — and a render past a bound is an EMAIL_RENDERING_ERROR saying which. No database: the renderer only.
// A sandbox process of this file's own, not the run's shared one (support/email-sandbox.global.ts): these tests
// stop it, and push it to its limits.
delete process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET;
afterAll(() => stopSandboxProcess());

const project = { displayName: "Acme" };
const projectId = "email-rendering-bounds";
const PREFIX = "Failed to render email with theme: ";
const bare = (templateSource: string): EmailRenderInput => ({ themeSource: null, templateSource, project, projectId });
const returning = (jsx: string, before = "") => bare(`import { Subject, NotificationCategory } from "@stackframe/emails";\nexport function EmailTemplate() {\n${before}\nreturn ${jsx};\n}`);

async function renderError(input: EmailRenderInput): Promise<{ code: string; status: number; message: string; details: unknown }> {
  try {
    await renderEmail(input);
  } catch (error) {
    const known = error as { code?: string; statusCode?: number; message: string; details?: unknown };
    return { code: known.code ?? "", status: known.statusCode ?? 0, message: known.message, details: known.details };
  }
  throw new Error("the render was expected to fail");
}

describe("error messages", () => {
  it("cuts the issue's 30 MB error message to its first 2,000 characters, the last of them …", async () => {
    const error = await renderError(bare('export function EmailTemplate() { throw new Error("E".repeat(30000000)); }'));
    const cut = "E".repeat(1999) + "…";
    expect(error).toEqual({ code: "EMAIL_RENDERING_ERROR", status: 400, message: PREFIX + cut, details: { error: cut } });
  });

  it("cuts a thrown string and a message that is not a string the same way", async () => {
    expect((await renderError(bare('export function EmailTemplate() { throw "F".repeat(5000000); }'))).message).toBe(PREFIX + "F".repeat(1999) + "…");
    const notAString = 'export function EmailTemplate() { throw { message: { toString() { return "G".repeat(3000000); } } }; }';
    expect((await renderError(bare(notAString))).message).toBe(PREFIX + "G".repeat(1999) + "…");
  });

  it("names an error it cannot read instead of failing on it", async () => {
    // Thrown as the module loads, outside React (which reads an error's message itself).
    const error = await renderError(bare("throw { get message() { throw new Error('no'); } };\nexport function EmailTemplate() { return <p />; }"));
    expect(error.message).toBe(PREFIX + "the template threw something that could not be described");
  });

  it("never cuts a character in two", async () => {
    // 1,998 characters, then an emoji (two UTF-16 units): the cut keeps the 1,998 and drops the whole emoji.
    const error = await renderError(bare('export function EmailTemplate() { throw new Error("H".repeat(1998) + "😀".repeat(100)); }'));
    expect(error.message).toBe(PREFIX + "H".repeat(1998) + "…");
  });

  it("cuts a compile error naming a huge identifier", async () => {
    const name = "a".repeat(100_000);
    const error = await renderError(bare(`const ${name} = 1;\nconst ${name} = 2;\nexport function EmailTemplate() { return <p />; }`));
    expect(error.code).toBe("EMAIL_RENDERING_ERROR");
    expect(error.message.length).toBe(PREFIX.length + 2000);
    expect(error.message).toMatch(/^Failed to render email with theme: could not compile the template at line 2, column \d+: The symbol "a+…$/);
  });
});

describe("rendered output", () => {
  it("refuses the issue's 15.6 MB render, and any HTML over 1,000,000 characters", async () => {
    const tooLong = PREFIX + "the rendered HTML is longer than the 1,000,000 characters allowed";
    expect((await renderError(returning('<p>{"x".repeat(15600000)}</p>'))).message).toBe(tooLong);
    expect((await renderError(returning('<p>{"x".repeat(1000000)}</p>'))).message).toBe(tooLong);
    // Under the bound, with the document's skeleton around it, a large mail still renders in full.
    const rendered = await renderEmail(returning('<p>{"x".repeat(990000)}</p>'));
    expect(rendered.html).toContain(`<p>${"x".repeat(990000)}</p>`);
    expect(rendered.text).toBe("x".repeat(990000));
  });

  it("refuses a plain text over 1,000,000 characters made from a short HTML", async () => {
    // Each <hr/> (5 characters of HTML) is a line of 40 dashes in the text.
    const error = await renderError(returning("<div>{Array.from({ length: 30000 }, (_, i) => <hr key={i} />)}</div>"));
    expect(error.message).toBe(PREFIX + "the plain text is longer than the 1,000,000 characters allowed");
  });

  it("refuses a subject over 1,000 characters and a category over 200", async () => {
    expect((await renderError(returning('<><Subject value={"S".repeat(1001)} /><p>hi</p></>'))).message).toBe(PREFIX + "the subject is longer than the 1,000 characters allowed");
    const subject = "S".repeat(1000);
    expect((await renderEmail(returning(`<><Subject value={"${subject}"} /><p>hi</p></>`))).subject).toBe(subject);
    expect((await renderError(returning('<><NotificationCategory value={"C".repeat(201)} /><p>hi</p></>'))).message).toBe(
      PREFIX + "the notification category is longer than the 200 characters allowed",
    );
  });

  it("keeps rendering the project's mail after each of these", async () => {
    const rendered = await renderEmail(returning('<><Subject value="Still here" /><p>fine</p></>'));
    expect(rendered).toEqual({
      html: expect.stringContaining("<body><p>fine</p></body></html>"),
      text: "fine",
      subject: "Still here",
      notificationCategory: null,
    });
  });
});
