import { createServer, connect, type Socket } from "node:net";

/**
 * A TCP proxy in front of a PostgreSQL server, for tests of how Latchkey answers while its database connections
 * fail in a chosen way, without disturbing the real server (other tests use it): pass connections through, refuse
 * new ones as PostgreSQL does (a FATAL ErrorResponse to the startup message, with any SQLSTATE), accept them and
 * never answer, or cut every open connection.
 */
export type ProxyMode = { kind: "pass" } | { kind: "refuse"; code: string; message: string } | { kind: "silent" };

export interface PostgresProxy {
  port: number;
  /** How connections opened from now on are treated. */
  set(mode: ProxyMode): void;
  /** Cuts every connection open now (both sides), as a crashed server or a network fault would. */
  cutAll(): void;
  close(): Promise<void>;
}

export async function startPostgresProxy(upstream: { host: string; port: number }): Promise<PostgresProxy> {
  let mode: ProxyMode = { kind: "pass" };
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    const current = mode;
    if (current.kind === "silent") return;
    if (current.kind === "refuse") {
      // Answered once the client has sent its startup message, as PostgreSQL refuses after reading it.
      client.once("data", () => client.end(errorResponse(current.code, current.message)));
      return;
    }
    const server = connect(upstream);
    track(server);
    client.pipe(server).on("close", () => server.destroy());
    server.pipe(client).on("close", () => client.destroy());
    server.on("close", () => client.destroy());
    client.on("close", () => server.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    set: (next) => (mode = next),
    cutAll: () => {
      for (const socket of open) socket.destroy();
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** PostgreSQL's ErrorResponse message ('E'): severity, SQLSTATE and text, as a FATAL refusal of a connection. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([field("S", "FATAL"), field("V", "FATAL"), field("C", code), field("M", message), Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(value), Buffer.from([0])]);
