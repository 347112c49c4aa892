import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { killServerProcesses, runServerProcess, waitUntilServing, type ServerProcess } from "./support/server-process.js";

// Issue 30 §1, email rendering as a multi-tenant resource, measured on a real server process as the review
// did: anyone who signs up in the dashboard owns a project and may render TSX through POST /emails/render-email.
// One 30 MB error message got a 57 MB answer after 11 s while /health took 4–5 s for everyone, and the server's
// memory rose by 260–330 MB and stayed. The sandbox runs in a child process of the server; the memory measured here
// is the server process's own. PGlite only: the process and its sandbox are the point, not the database.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const root = mkdtempSync(join(tmpdir(), "latchkey-render-tenants-"));
afterAll(() => {
  killServerProcesses();
  rmSync(root, { recursive: true, force: true });
});

const PREFIX = "Failed to render email with theme: ";
const template = (body: string) => `export function EmailTemplate() {\n${body}\n}`;
const NORMAL = template("return <p>Hello from a well-behaved tenant</p>;");
/** The review's hostile renders: its 30 MB error, its 15.6 MB mail, a runaway loop and a memory bomb. */
const HOSTILE = [
  template('throw new Error("E".repeat(30000000));'),
  template('return <p>{"x".repeat(15600000)}</p>;'),
  template("while (true) {}"),
  template("const chunks = []; while (true) chunks.push(new Array(1_000_000).fill(chunks.length));"),
];
// A small queue so that filling it takes a few renders (the default is 64).
const QUEUE = 3;

let server: ServerProcess;
interface Tenant {
  id: string;
  headers: Record<string, string>;
}
let tenants: Tenant[] = [];

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(server.url + "/api/v1" + path, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A dashboard user signs up and creates `count` projects, each rendered in through the owner's admin token. */
async function signUpTenants(count: number): Promise<Tenant[]> {
  const internal = { "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey };
  const signUp = await call("/auth/password/sign-up", { headers: internal, body: { email: `owner-${crypto.randomUUID()}@example.com`, password: "correct horse battery" } });
  expect(signUp.status, signUp.text).toBe(200);
  const accessToken = JSON.parse(signUp.text).access_token as string;
  const me = JSON.parse((await call("/users/me", { headers: { ...internal, "x-stack-access-token": accessToken } })).text);
  const created: Tenant[] = [];
  for (let i = 0; i < count; i++) {
    const project = await call("/internal/projects", { headers: { ...internal, "x-stack-access-token": accessToken }, body: { display_name: `Tenant ${i}`, owner_team_id: me.selected_team_id } });
    expect(project.status, project.text).toBe(201);
    const id = JSON.parse(project.text).id as string;
    created.push({ id, headers: { "x-stack-project-id": id, "x-stack-access-type": "admin", "x-stack-admin-access-token": accessToken } });
  }
  return created;
}

const render = (tenant: Tenant, source: string) => call("/emails/render-email", { headers: tenant.headers, body: { template_tsx_source: source, theme_id: false } });

/** The server process's resident memory, in MB (the sandbox process is not part of it). */
function serverRssMb(): number {
  const line = readFileSync(`/proc/${server.child.pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return Number(/\d+/.exec(line)![0]) / 1024;
}

/** /health latencies, one request after another, until `work` settles. */
async function healthLatenciesDuring(work: Promise<unknown>): Promise<number[]> {
  let settled = false;
  const done = () => (settled = true);
  work.then(done, done);
  const latencies: number[] = [];
  while (!settled || latencies.length < 20) {
    const started = performance.now();
    const response = await fetch(server.url + "/health");
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    // Paced, so that the samples spread over the whole run rather than crowd its quiet moments.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await work;
  return latencies;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;

describe.skipIf(onPostgres)("email rendering among tenants", () => {
  beforeAll(async () => {
    server = runServerProcess({ LATCHKEY_DATA_DIR: join(root, "data"), LATCHKEY_EMAIL_RENDER_QUEUE: String(QUEUE) });
    await waitUntilServing(server);
    tenants = await signUpTenants(5);
    // Each project's first render loads the libraries into its sandbox; the measurements below are of warm ones.
    for (const tenant of tenants) expect((await render(tenant, NORMAL)).status).toBe(200);
  }, 240_000);

  it("answers the review's 30 MB error with its first 2,000 characters", async () => {
    const response = await render(tenants[0]!, HOSTILE[0]!);
    const cut = "E".repeat(1999) + "…";
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBe("EMAIL_RENDERING_ERROR");
    expect(response.text).toBe(JSON.stringify({ code: "EMAIL_RENDERING_ERROR", details: { error: cut }, error: PREFIX + cut }, undefined, 2));
  }, 60_000);

  it("keeps /health answering within 100 ms at p99 while four tenants render hostile templates", async () => {
    // The same polling with nothing else going on, before and after: on this machine, shared with other work,
    // the quiet p99 is itself tens of milliseconds at times, and the bound is then three times the larger of the
    // two (an event loop stalled by a render's output costs seconds: 1 s at p99 before issue 30).
    const quietBefore = await healthLatenciesDuring(new Promise((resolve) => setTimeout(resolve, 3000)));
    const answers: Array<{ status: number; length: number }> = [];
    const hostile = Promise.all(
      tenants.slice(0, 4).map(async (tenant, i) => {
        for (let round = 0; round < HOSTILE.length; round++) {
          const response = await render(tenant, HOSTILE[(i + round) % HOSTILE.length]!);
          answers.push({ status: response.status, length: response.text.length });
        }
      }),
    );
    const latencies = await healthLatenciesDuring(hostile);
    const quietAfter = await healthLatenciesDuring(new Promise((resolve) => setTimeout(resolve, 3000)));
    const quiet = Math.max(p99(quietBefore), p99(quietAfter));
    const figures = `p99 ${p99(latencies).toFixed(1)} ms of ${latencies.length} samples (slowest ${Math.max(...latencies).toFixed(0)} ms); quiet p99 ${quiet.toFixed(1)} ms`;
    expect(p99(latencies), figures).toBeLessThan(Math.max(100, 3 * quiet));
    // Each an EMAIL_RENDERING_ERROR of two copies of a 2,000-character message at most, pretty-printed.
    expect(answers.filter((a) => a.status !== 400 || a.length > 5000)).toEqual([]);
  }, 180_000);

  it("keeps its memory within 50 MB of where it started, during 20 hostile renders and after them", async () => {
    const start = serverRssMb();
    let peak = start;
    const renders = (async () => {
      for (let round = 0; round < 5; round++) {
        await Promise.all(tenants.slice(0, 4).map((tenant, i) => render(tenant, HOSTILE[(i + round) % HOSTILE.length]!)));
      }
    })();
    // Sampled while they run: nothing a render produces is ever held by the server in one large piece.
    let running = true;
    const stop = () => (running = false);
    renders.then(stop, stop);
    while (running) {
      peak = Math.max(peak, serverRssMb());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await renders;
    // Garbage is collected when V8 gets to it: wait for the memory to come back, up to a minute.
    const deadline = Date.now() + 60_000;
    let end = serverRssMb();
    while (end > start + 50 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      end = serverRssMb();
    }
    const figures = `RSS ${start.toFixed(0)} MB at the start, ${peak.toFixed(0)} MB at the most, ${end.toFixed(0)} MB after`;
    expect(peak - start, figures).toBeLessThanOrEqual(50);
    expect(end - start, figures).toBeLessThanOrEqual(50);
  }, 240_000);

  it("runs one project's renders one at a time, refuses past its queue with a 429, and serves the others meanwhile", async () => {
    const [busy, other] = [tenants[3]!, tenants[4]!];
    // Each takes a second of CPU: one renders, QUEUE wait, and the 3 beyond are refused at once, so they are the
    // first three answers.
    const answers: Array<Awaited<ReturnType<typeof render>>> = [];
    let threeAnswered!: () => void;
    const firstThree = new Promise<void>((resolve) => (threeAnswered = resolve));
    const flood = Array.from({ length: 1 + QUEUE + 3 }, () =>
      render(busy, HOSTILE[2]!).then((response) => {
        if (answers.push(response) === 3) threeAnswered();
        return response;
      }),
    );
    await firstThree;
    for (const response of answers) {
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.text).toBe("Too many emails of this project are being rendered. Please try again in 1 second.");
    }
    // Another project is not behind them: it is answered while the busy project's renders still run.
    const served = await render(other, NORMAL);
    expect(served.status).toBe(200);
    expect(answers.length).toBeLessThan(flood.length);
    const all = await Promise.all(flood);
    expect(all.filter((r) => r.status === 400).map((r) => JSON.parse(r.text).details.error)).toEqual(Array(1 + QUEUE).fill("the render ran longer than 1 s"));
  }, 180_000);
});
