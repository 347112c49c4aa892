import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_CLIENT_SECRET } from "@latchkey/protocol/dialects";
import { ensureDashboardBuilt } from "../../dashboard/test/support/dashboard-build.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * `/dashboard/` (routes/dashboard.ts): the built admin dashboard, served in every mode, with what the app
 * needs to reach the internal project written into its page. The app itself is driven in a browser by
 * packages/dashboard/test/dashboard.e2e.test.ts.
 */
const PRODUCTION = { LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40), LATCHKEY_PUBLIC_URL: "https://auth.example.com" };
let production: TestServer;

beforeAll(async () => {
  await ensureDashboardBuilt();
  production = await startTestServer(PRODUCTION);
  // A stale dashboard build is rebuilt first: ~1 min on a loaded machine.
}, 180_000);
afterAll(async () => {
  await production?.close();
});

const CONFIG = /<script type="application\/json" id="latchkey-dashboard-config">(.*?)<\/script>/;

async function pageConfig(server: TestServer, path = "/dashboard/") {
  const response = await fetch(`${server.url}${path}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  return JSON.parse(CONFIG.exec(await response.text())![1]!) as { baseUrl: string; projectId: string; publishableClientKey: string | null };
}

async function setInternalConfig(server: TestServer, override: Record<string, unknown>) {
  const internal = await server.db.selectFrom("projects").select("config_override").where("id", "=", "internal").executeTakeFirstOrThrow();
  const current = typeof internal.config_override === "string" ? JSON.parse(internal.config_override) : internal.config_override;
  await server.db.updateTable("projects").set({ config_override: JSON.stringify({ ...current, ...override }) }).where("id", "=", "internal").execute();
}

describe("the dashboard outside dev mode", () => {
  it("serves index.html for every route, uncached and never framed, with the server's public URL", async () => {
    for (const path of ["/dashboard/", "/dashboard/projects", "/dashboard/handler/sign-up"]) {
      const response = await fetch(`${production.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(await response.text()).toContain('<div id="root"></div>');
    }
    const redirect = await fetch(`${production.url}/dashboard`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("/dashboard/");
  });

  it("hands the app the protocol's public key when no key is configured, which signs owners up", async () => {
    const config = await pageConfig(production);
    expect(config).toEqual({ baseUrl: "https://auth.example.com", projectId: "internal", publishableClientKey: PUBLIC_CLIENT_SECRET, paymentsTestMode: true });
    const signUp = await fetch(`${production.url}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": config.publishableClientKey!, "content-type": "application/json" },
      body: JSON.stringify({ email: `owner-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }),
    });
    expect(signUp.status).toBe(200);
  });

  it("hands no key when the internal project requires one and none is configured, and the configured one when set", async () => {
    await setInternalConfig(production, { "project.requirePublishableClientKey": true });
    try {
      expect((await pageConfig(production)).publishableClientKey).toBeNull();
    } finally {
      await setInternalConfig(production, { "project.requirePublishableClientKey": false });
    }
    const seeded = await startTestServer({ ...PRODUCTION, LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY: "pck_configured_for_this_server" });
    try {
      expect((await pageConfig(seeded)).publishableClientKey).toBe("pck_configured_for_this_server");
    } finally {
      await seeded.close();
    }
  });

  it("serves the built assets, compressed and cached for good, and nothing else from the folder", async () => {
    const html = await (await fetch(`${production.url}/dashboard/`)).text();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const plain = await fetch(`${production.url}${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = Buffer.from(await plain.arrayBuffer());

    // Node's fetch would decompress it itself; the raw bytes show what travels.
    const gzipped = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${production.url}${script}`, { headers: { "accept-encoding": "gzip" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ encoding: response.headers["content-encoding"], bytes: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
    expect(gzipped.encoding).toBe("gzip");
    expect(gunzipSync(gzipped.bytes).equals(body)).toBe(true);

    for (const path of ["/dashboard/assets/..%2Findex.html", "/dashboard/assets/missing.js", "/dashboard/assets/index.html"]) {
      expect((await fetch(`${production.url}${path}`)).status, path).toBe(404);
    }
  });
});
