import { Server as NetServer, type Socket } from "node:net";
import type { Server } from "node:http";

/**
 * Stops listening without cutting connections whose first request has not been read yet. Node's
 * `server.close()` also closes "idle" connections, and a connection accepted while the event loop was busy
 * (embedded PGlite works on the main thread) counts as idle until its request is parsed: those clients saw
 * their requests reset (issue 17). Only connections that have been answered and wait for another request
 * are closed; a new connection's request is read and served (with `Connection: close`, see drain.ts), and so
 * are connections still waiting in the listen backlog.
 */
export function trackConnections(server: Server): {
  stopListening(forceAfterMs: number): { listenerClosed: Promise<void>; allClosed: Promise<void> };
  closeAll(): void;
} {
  const open = new Set<Socket>();
  const working = new Set<Socket>();
  const answered = new WeakSet<Socket>();
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  server.on("request", (request, response) => {
    const socket = request.socket;
    working.add(socket);
    response.once("close", () => {
      working.delete(socket);
      answered.add(socket);
    });
  });
  return {
    stopListening(forceAfterMs) {
      let listenerClosed!: () => void;
      let allClosed!: () => void;
      const closed = {
        listenerClosed: new Promise<void>((resolve) => (listenerClosed = resolve)),
        allClosed: new Promise<void>((resolve) => (allClosed = resolve)),
      };
      // Connections the kernel completed while the event loop was busy wait in the listen backlog, and closing
      // the listening socket would reset them. A busy loop accepts about one per poll phase (the work queued
      // behind each accept runs first), so the listener closes only after a whole poll phase (between two
      // check phases) accepted nothing: the backlog is empty then. `forceAfterMs` bounds that under steady load.
      let acceptedSinceCheck = true;
      const noteAccept = () => (acceptedSinceCheck = true);
      server.on("connection", noteAccept);
      const close = () => {
        clearTimeout(force);
        server.off("connection", noteAccept);
        NetServer.prototype.close.call(server, () => allClosed());
        listenerClosed();
        for (const socket of open) if (answered.has(socket) && !working.has(socket)) socket.destroy();
      };
      const force = setTimeout(close, forceAfterMs);
      const check = () => {
        if (!acceptedSinceCheck) return close();
        acceptedSinceCheck = false;
        setImmediate(check);
      };
      setImmediate(check);
      return closed;
    },
    closeAll() {
      server.closeAllConnections();
    },
  };
}
