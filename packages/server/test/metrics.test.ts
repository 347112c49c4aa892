import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEndpoint } from "../src/services/webhook-endpoints.js";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestServer } from "./support/test-server.js";

// Issue 17: `/metrics` in Prometheus' text format, for a scraper; open in dev mode, behind a bearer token outside.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?\\})? (\\S+)$`);
const SUFFIXES = ["_bucket", "_sum", "_count", "_total", "_created"];

/**
 * Parses the text exposition format (version 0.0.4) strictly: every line is a HELP, a TYPE, or a sample
 * of a family whose TYPE came first; values are numbers. Throws on anything else.
 */
function parsePrometheusText(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(meta[3]!)) throw new Error(`bad type: ${line}`);
        if (types.has(meta[2]!)) throw new Error(`family declared twice: ${line}`);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const name = match[1]!;
    const family = types.has(name) ? name : SUFFIXES.map((suffix) => name.slice(0, -suffix.length)).find((base, i) => name.endsWith(SUFFIXES[i]!) && types.has(base));
    if (!family) throw new Error(`sample without a TYPE: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(new RegExp(LABEL, "g"))) labels[key!] = value!.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    const value = parseFloatLikePrometheus(match.at(-1)!);
    if (value === undefined) throw new Error(`bad value: ${line}`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

// Prometheus reads values with Go's strconv.ParseFloat: decimal or exponent notation, and Inf/NaN in any case
// (prom-client writes an empty average as `Nan`).
function parseFloatLikePrometheus(text: string): number | undefined {
  if (/^nan$/i.test(text)) return NaN;
  const infinity = /^([+-]?)inf(inity)?$/i.exec(text);
  if (infinity) return infinity[1] === "-" ? -Infinity : Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : undefined;
}

async function scrape(server: TestServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheusText(await response.text());
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

const SIGN_IN = { method: "POST", route: "/api/v1/auth/password/sign-in", status: "200" };

describe("metrics in dev mode", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("counts a sign-in by its route and status, with its latency, and the password hash it cost", async () => {
    const project = await createTestProject(server);
    const email = `metrics-${crypto.randomUUID()}@example.com`;
    const headers = project.headers("client");
    expect((await api(server.url, "/auth/password/sign-up", { method: "POST", headers, body: { email, password: "correct horse" } })).status).toBe(200);

    const before = await scrape(server);
    const hashesBefore = valueOf(before.samples, "latchkey_password_hashes_total", { algorithm: "argon2", operation: "verify" }) ?? 0;
    const signInsBefore = valueOf(before.samples, "latchkey_http_requests_total", SIGN_IN) ?? 0;

    expect((await api(server.url, "/auth/password/sign-in", { method: "POST", headers, body: { email, password: "correct horse" } })).status).toBe(200);
    expect((await api(server.url, "/auth/password/sign-in", { method: "POST", headers, body: { email, password: "wrong horse" } })).status).toBe(400);

    const { types, samples } = await scrape(server);
    expect(types.get("latchkey_http_requests_total")).toBe("counter");
    expect(types.get("latchkey_http_request_duration_seconds")).toBe("histogram");
    expect(valueOf(samples, "latchkey_http_requests_total", SIGN_IN)).toBe(signInsBefore + 1);
    expect(valueOf(samples, "latchkey_http_requests_total", { ...SIGN_IN, status: "400" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "latchkey_http_request_duration_seconds_count", SIGN_IN)).toBe(signInsBefore + 1);
    // An argon2 verification takes milliseconds, so the sign-in's time is above zero and ends in a finite bucket.
    expect(valueOf(samples, "latchkey_http_request_duration_seconds_sum", SIGN_IN)).toBeGreaterThan(0);
    expect(valueOf(samples, "latchkey_http_request_duration_seconds_bucket", { ...SIGN_IN, le: "+Inf" })).toBe(signInsBefore + 1);
    expect(valueOf(samples, "latchkey_http_request_duration_seconds_bucket", { ...SIGN_IN, le: "10" })).toBe(signInsBefore + 1);
    // Two sign-ins, two verifications (the process's other servers may add more).
    expect(valueOf(samples, "latchkey_password_hashes_total", { algorithm: "argon2", operation: "verify" })).toBeGreaterThanOrEqual(hashesBefore + 2);
    expect(types.get("latchkey_password_hashes_total")).toBe("counter");
  });

  it("labels requests by route pattern, never by the path a client sent", async () => {
    const project = await createTestProject(server);
    const id = crypto.randomUUID();
    await api(server.url, `/users/${id}`, { headers: project.headers("server") });
    await fetch(`${server.url}/no-such-page-${id}`);
    // Refused by a middleware before its handler ran: still labelled with the route it asked for.
    const refused = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-publishable-client-key": "wrong" } });
    const response = await fetch(`${server.url}/metrics`);
    const text = await response.text();
    expect(text).not.toContain(id);
    const { samples } = parsePrometheusText(text);
    expect(valueOf(samples, "latchkey_http_requests_total", { method: "GET", route: "/api/v1/users/:user_id", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "latchkey_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(valueOf(samples, "latchkey_http_requests_total", { method: "GET", route: "/api/v1/users/me", status: String(refused.status) })).toBe(1);
  });

  it("shows cache reads, mail, the process and (on PostgreSQL) the connection pool", async () => {
    const project = await createTestProject(server);
    const email = `metrics-${crypto.randomUUID()}@example.com`;
    const outboxBefore = valueOf((await scrape(server)).samples, "latchkey_mail_deliveries_total", { result: "outbox" }) ?? 0;
    // With a callback URL, sign-up mails a verification link: to the dev outbox, this server having no SMTP server.
    const signUp = await api(server.url, "/auth/password/sign-up", {
      method: "POST",
      headers: project.headers("client"),
      body: { email, password: "correct horse", verification_callback_url: "http://localhost:3000/handler/email-verification" },
    });
    // Each request looks its project up in the cache: the second one at the latest is a hit.
    for (let i = 0; i < 2; i++) await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": signUp.body.access_token } });
    const { types, samples } = await scrape(server);
    expect(valueOf(samples, "latchkey_cache_requests_total", { cache: "projects", result: "hit" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "latchkey_cache_requests_total", { cache: "projects", result: "miss" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "latchkey_cache_entries", { cache: "projects" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "latchkey_mail_deliveries_in_flight", {})).toBe(0);
    expect(types.get("latchkey_mail_deliveries_total")).toBe("counter");
    expect(valueOf(samples, "latchkey_mail_deliveries_total", { result: "outbox" })).toBeGreaterThanOrEqual(outboxBefore + 1);
    expect(valueOf(samples, "process_cpu_user_seconds_total", {})).toBeGreaterThan(0);
    expect(types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");
    if (process.env.LATCHKEY_TEST_DB === "postgres") {
      expect(valueOf(samples, "latchkey_db_pool_connections", {})).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, "latchkey_db_pool_max_connections", {})).toBe(10);
      expect(valueOf(samples, "latchkey_db_pool_waiting_clients", {})).toBe(0);
      expect(types.get("latchkey_db_pool_idle_connections")).toBe("gauge");
    } else {
      expect(types.has("latchkey_db_pool_connections")).toBe(false);
    }
  });
});

describe("webhook metrics", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("shows the queue in the database while the worker is held, then the attempts it made", async () => {
    let answered = 0;
    const receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        // The first delivery is refused (a retry is due later), the next ones accepted.
        response.writeHead(answered++ === 0 ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const project = await createTestProject(server);
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      await createEndpoint(server.db, server.env, project.projectId, { url });
      const before = (await scrape(server)).samples;
      const attempts = (result: string, samples: Sample[]) => valueOf(samples, "latchkey_webhook_attempts_total", { result }) ?? 0;
      await server.webhookDelivery.pause();
      try {
        for (const name of ["First", "Second"]) expect((await api(server.url, "/users", { method: "POST", headers: project.headers("server"), body: { display_name: name } })).status).toBe(201);
        const { types, samples } = await scrape(server);
        expect(types.get("latchkey_webhook_queue")).toBe("gauge");
        expect(valueOf(samples, "latchkey_webhook_queue", { state: "awaiting_fan_out" })).toBe(2);
        expect(valueOf(samples, "latchkey_webhook_queue", { state: "due" })).toBe(0);
      } finally {
        server.webhookDelivery.resume();
      }
      let samples: Sample[] = [];
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        samples = (await scrape(server)).samples;
        if (attempts("succeeded", samples) - attempts("succeeded", before) === 1 && attempts("failed", samples) - attempts("failed", before) === 1) break;
      }
      expect(attempts("succeeded", samples) - attempts("succeeded", before)).toBe(1);
      expect(attempts("failed", samples) - attempts("failed", before)).toBe(1);
      // The refused one waits for its retry (5 s later); nothing else is left.
      expect(valueOf(samples, "latchkey_webhook_queue", { state: "awaiting_fan_out" })).toBe(0);
      expect(valueOf(samples, "latchkey_webhook_queue", { state: "retrying" })).toBe(1);
      expect(valueOf(samples, "latchkey_webhook_queue", { state: "due" })).toBe(0);
      expect(valueOf(samples, "latchkey_webhook_queue", { state: "held" })).toBe(0);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe("metrics outside dev mode", () => {
  const production = { LATCHKEY_DEV_MODE: "false", LATCHKEY_SERVER_SECRET: "x".repeat(40) };
  const token = "metrics-token-0123456789abcdef";
  let guarded: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    [guarded, off] = await Promise.all([startTestServer({ ...production, LATCHKEY_METRICS_TOKEN: token }), startTestServer(production)]);
  });
  afterAll(async () => {
    await Promise.all([guarded?.close(), off?.close()]);
  });

  it("asks for the token and answers with it", async () => {
    for (const authorization of [undefined, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token]) {
      const response = await fetch(`${guarded.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.text()).not.toContain("latchkey_");
    }
    const { samples } = await scrape(guarded, { authorization: `Bearer ${token}` });
    expect(valueOf(samples, "latchkey_http_requests_total", { method: "GET", route: "/metrics", status: "401" })).toBe(5);
  });

  // Issue 30: the token is a secret like a server key, and guesses of it are limited per client address the same way.
  it("limits guesses of the token per client address: after 50 wrong ones even the right one waits", async () => {
    const guessed = await startTestServer({ ...production, LATCHKEY_METRICS_TOKEN: token });
    try {
      const scrapeWith = (authorization: string) => fetch(`${guessed.url}/metrics`, { headers: { authorization } });
      for (let i = 0; i < 50; i++) expect((await scrapeWith(`Bearer guess-${i}`)).status, `guess ${i + 1}`).toBe(401);
      const refused = await scrapeWith(`Bearer ${token}`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.text()).toBe("Too many failed attempts. Please try again in 1 second.");
      const deadline = Date.now() + 30_000;
      let answered = refused;
      while (answered.status === 429 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answered = await scrapeWith(`Bearer ${token}`);
      }
      expect(answered.status).toBe(200);
    } finally {
      await guessed.close();
    }
  });

  it("is off without a token", async () => {
    const response = await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(404);
  });
});
