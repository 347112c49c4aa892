import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "svix";
import { afterAll, beforeAll, expect } from "vitest";

export interface ReceivedRequest {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTP receiver for the file's webhook endpoints, on 127.0.0.1 (the server must allow private targets:
 * LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS, or dev mode). It keeps every request and answers 200 "ok", or
 * 500 "receiver is down" on the paths in `failingPaths`.
 */
export function useWebhookReceiver() {
  let server: Server;
  let url = "";
  const received: ReceivedRequest[] = [];
  const failingPaths = new Set<string>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        const path = request.url ?? "";
        received.push({ path, body, headers: request.headers });
        if (failingPaths.has(path)) response.writeHead(500).end("receiver is down");
        else response.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  return {
    /** The receiver's origin, e.g. http://127.0.0.1:4123 (once the file's tests run). */
    get url() {
      return url;
    },
    received,
    failingPaths,
    /** Waits (up to 20 s) until `count` requests reached `path`, and returns them all. */
    async deliveriesTo(path: string, count: number): Promise<ReceivedRequest[]> {
      const deadline = Date.now() + 20_000;
      while (received.filter((r) => r.path === path).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const deliveries = received.filter((r) => r.path === path);
      expect(deliveries.length, `deliveries to ${path}`).toBeGreaterThanOrEqual(count);
      return deliveries;
    },
  };
}

/** A delivery's payload, checked with the official `svix` package against the endpoint's signing secret (throws when it does not match). */
export const verifyDelivery = (delivery: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
