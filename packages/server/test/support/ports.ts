import { createServer } from "node:net";

/**
 * A port on 127.0.0.1 that nothing listens on right now: for a server the test starts there (its public URL
 * must be known before it starts), or for a mail server that is down (connections are refused).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A port with nothing listening: connecting to it is refused. */
export const closedPort = freePort;
