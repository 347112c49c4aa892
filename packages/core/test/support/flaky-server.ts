import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the flaky server does with one request: drop the connection, or answer. */
export type Behaviour = "drop" | { status: number; headers?: Record<string, string>; body?: unknown };

export interface FlakyServer {
  baseUrl: string;
  /** Requests received so far, with their method, path and headers. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free port that behaves, request by request, as `script` says (the last entry
 * repeats): a "drop" destroys the socket so the client sees a network failure.
 */
export async function startFlakyServer(script: Behaviour[]): Promise<FlakyServer> {
  const requests: FlakyServer["requests"] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const behaviour = script[Math.min(requests.length - 1, script.length - 1)]!;
      if (behaviour === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(behaviour.status, { "content-type": "application/json", connection: "close", ...behaviour.headers });
      res.end(behaviour.body === undefined ? "" : typeof behaviour.body === "string" ? behaviour.body : JSON.stringify(behaviour.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
