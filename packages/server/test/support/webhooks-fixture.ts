import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, expect } from "vitest";
import { Svix, Webhook } from "svix";
import { api } from "./api.js";
import { startSmtpCapture, type SmtpCapture } from "./smtp-capture.js";
import { startTestServer, type TestProject, type TestServer } from "./test-server.js";

/**
 * Webhook tests' parts (issue 18): a test server allowed to deliver to 127.0.0.1 and mailing a real SMTP
 * server, a real HTTP receiver that verifies every delivery with the official `svix` package, and endpoints
 * managed with the official `svix` client pointed at Latchkey's Svix-compatible API.
 */
export function useWebhookServer() {
  let server: TestServer;
  let receiver: Receiver;
  let smtp: SmtpCapture;
  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpCapture();
    // Mail to project admins (an endpoint disabled) goes to the test's SMTP server.
    server = await startTestServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", LATCHKEY_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function svixFor(project: TestProject): Promise<Svix> {
    const response = await api(server.url, "/webhooks/svix-token", { method: "POST", body: {}, headers: project.headers("admin") });
    expect(response.status, response.text).toBe(201);
    return new Svix(response.body.token, { serverUrl: `${server.url}/api/v1/webhooks/svix` });
  }

  /** An endpoint of the project at a fresh receiver path; its deliveries, verified with its secret. */
  async function listen(project: TestProject, options: { filterTypes?: string[]; disabled?: boolean; metadata?: Record<string, string> } = {}) {
    const svix = await svixFor(project);
    const path = `/hook/${crypto.randomUUID()}`;
    const endpoint = await svix.endpoint.create(project.projectId, { url: receiver.url + path, ...options });
    receiver.secrets.set(path, (await svix.endpoint.getSecret(project.projectId, endpoint.id)).key);
    const received = () => receiver.deliveries.filter((d) => d.path === path);
    return {
      path,
      endpoint,
      received,
      /** The verified events so far, in arrival order. */
      events: () => received().map((d) => d.verified),
      async waitFor(count: number): Promise<Delivery[]> {
        const deadline = Date.now() + 20_000;
        while (received().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(received().length, `deliveries to ${path}`).toBeGreaterThanOrEqual(count);
        return received();
      },
    };
  }

  const as = (project: TestProject, access: "server" | "admin", path: string, method = "GET", body?: unknown) =>
    api(server.url, path, { method, body, headers: project.headers(access) });

  return { parts: () => ({ server, receiver, smtp }), svixFor, listen, as };
}

/** Polls until `probe` gives a value (conditions, not fixed sleeps: the machine is loaded). */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Events of these types, in arrival order (arrival order between events is not promised). */
export const ofTypes = (deliveries: Delivery[], ...types: string[]) => deliveries.map((d) => d.verified!).filter((e) => types.includes(e.type));

/** The same events in any order: the worker sends due deliveries at once, so they arrive in any order. */
export function expectSameEvents(actual: unknown[], expected: unknown[]): void {
  expect(actual).toHaveLength(expected.length);
  expect(actual).toEqual(expect.arrayContaining(expected));
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload as `Webhook.verify` returned it; null when verification failed. */
  verified: { type: string; data: any } | null;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  secrets: Map<string, string>;
  /** Per path, the statuses to answer with in turn (then 200). */
  plans: Map<string, number[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver; test files with servers of their own (the OAuth suite's) start one too. */
export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const secrets = new Map<string, string>();
  const plans = new Map<string, number[]>();
  const http: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const secret = secrets.get(path);
      let verified: Delivery["verified"] = null;
      try {
        if (secret) verified = new Webhook(secret).verify(body, request.headers as Record<string, string>) as Delivery["verified"];
      } catch {
        verified = null;
      }
      deliveries.push({ path, headers: request.headers, body, verified });
      const status = plans.get(path)?.shift() ?? 200;
      response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "try again");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    secrets,
    plans,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
