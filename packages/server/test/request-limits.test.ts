import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_METADATA_BYTES } from "@latchkey/protocol/schemas";
import { api } from "./support/api.js";
import { startTestServer, createTestProject, type TestServer } from "./support/test-server.js";
import { as, createUser, expectSchemaError, signIn, server, useServerForFile, email } from "./support/users-fixture.js";
import { png } from "./support/tiny-images.js";

// Issue 17: bodies are limited before they are read, metadata is capped, every answer carries security headers.
useServerForFile();

const MAX_BODY_BYTES = 1_500_000;

/** Streams `totalBytes` of JSON-ish bytes at the API, and reports the answer and how much was written before it. */
function streamBody(path: string, totalBytes: number, headers: Record<string, string> = {}): Promise<{ status: number; text: string; written: number }> {
  const url = new URL(server.url + "/api/v1" + path);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client", ...headers } }, (res) => {
      answered = true;
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text, written }));
    });
    // Once answered, the server closes the connection: the rest of the body fails to send, as it should.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && written < totalBytes) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    if (headers["content-length"]) req.flushHeaders();
    else pump();
  });
}

describe("request bodies", () => {
  it("refuses a 200 MB streamed body with 413 long before it is all sent", async () => {
    const answer = await streamBody("/auth/password/sign-in", 200_000_000);
    expect(answer.status).toBe(413);
    expect(answer.text).toBe(`Request body too large: at most ${MAX_BODY_BYTES} bytes are accepted.`);
    expect(answer.written).toBeLessThan(50_000_000);
  });

  it("refuses a declared Content-Length over the limit without waiting for the body", async () => {
    const answer = await streamBody("/auth/password/sign-in", 0, { "content-length": "200000000" });
    expect(answer.status).toBe(413);
    expect(answer.written).toBe(0);
  });

  it("still takes a profile image sent as a 1,000,000-character data URL", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { primary_email: email() });
    const tokens = await signIn(project, user.id);
    const image = png();
    const prefix = "data:image/png;base64,";
    // A PNG padded with bytes after its end, so the URL is exactly the schema's 1,000,000 characters.
    const paddedBytes = Math.floor((1_000_000 - prefix.length) / 4) * 3;
    const padded = Buffer.concat([Buffer.from(image), Buffer.alloc(paddedBytes - image.length)]);
    const url = prefix + padded.toString("base64");
    expect(url.length).toBeLessThanOrEqual(1_000_000);
    expect(url.length).toBeGreaterThan(999_990);
    const updated = await as(project, "client", "/users/me", { method: "PATCH", body: { profile_image_url: url }, tokens });
    expect(updated.status, updated.text.slice(0, 200)).toBe(200);
    expect(updated.body.profile_image_url).toMatch(/\/api\/v1\/profile-images\//);
  });
});

describe("metadata", () => {
  const ofBytes = (bytes: number) => ({ note: "x".repeat(bytes - JSON.stringify({ note: "" }).length) });

  it(`keeps ${MAX_METADATA_BYTES} bytes of JSON and refuses one more with a clear 400`, async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { primary_email: email() });
    for (const field of ["client_metadata", "client_read_only_metadata", "server_metadata"]) {
      const fits = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { [field]: ofBytes(MAX_METADATA_BYTES) } });
      expect(fits.status).toBe(200);
      expect(JSON.stringify(fits.body[field]).length).toBe(MAX_METADATA_BYTES);
      const tooLarge = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { [field]: ofBytes(MAX_METADATA_BYTES + 1) } });
      expectSchemaError(tooLarge, `body.${field}`, `must not be larger than ${MAX_METADATA_BYTES} bytes as JSON`);
    }
    // Multi-byte characters count as the bytes they take.
    const euros = await as(project, "server", `/teams`, { method: "POST", body: { display_name: "Team", client_metadata: { note: "€".repeat(40_000) } } });
    expectSchemaError(euros, "body.client_metadata", "must not be larger than");
  });
});

describe("security headers", () => {
  let httpsServer: TestServer;
  beforeAll(async () => {
    httpsServer = await startTestServer({ LATCHKEY_PUBLIC_URL: "https://auth.example.com" });
  });
  afterAll(async () => {
    await httpsServer?.close();
  });

  it("sends nosniff and a referrer policy on API answers, and no HSTS over plain http", async () => {
    const answer = await api(server.url, "", { access: "client" });
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(answer.headers.get("strict-transport-security")).toBeNull();
    expect(answer.headers.get("content-security-policy")).toBeNull();
  });

  it("pins HTTPS when the public URL is https", async () => {
    const answer = await api(httpsServer.url, "", { access: "client" });
    expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("forbids framing Latchkey's own HTML pages", async () => {
    const page = await fetch(server.url + "/dev/outbox");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
