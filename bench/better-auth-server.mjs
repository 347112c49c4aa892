#!/usr/bin/env node
// The peer in `npm run bench`: a minimal Better Auth server (email + password, PostgreSQL through a
// `pg` Pool, Node http + toNodeHandler). `run.mjs` imports `betterAuthOptions` to run the migrations and
// starts this file as its own process, as Latchkey runs in its own.
//   BENCH_BA_DATABASE_URL=postgres://… BENCH_BA_PORT=… node bench/better-auth-server.mjs
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { betterAuth } from "better-auth";
import { toNodeHandler } from "better-auth/node";
import pg from "pg";

/** Lifetime of the signed session-data cookie: Better Auth's short-lived credential (see below). */
export const COOKIE_CACHE_SECONDS = 5 * 60;

/** The options both the migrations and the server use. */
export function betterAuthOptions({ databaseUrl, baseURL }) {
  return {
    baseURL,
    // A fixed development secret: the bench creates fresh databases and only listens on 127.0.0.1.
    secret: "latchkey-bench-better-auth-secret-0123456789abcdef",
    // Same pool size as Latchkey's (packages/server/src/db/connect.ts), on the same PostgreSQL.
    database: new pg.Pool({ connectionString: databaseUrl, max: 10 }),
    emailAndPassword: { enabled: true },
    session: {
      // Better Auth has no access/refresh token pair. Its session token cookie is the long-lived credential
      // (a database row, like Latchkey's refresh token); with the cookie cache on, get-session also sets a
      // signed, short-lived session-data cookie that it verifies without the database (like Latchkey's
      // access token). Turning it on gives the bench its closest equivalents of both scenarios: "current
      // user" sends both cookies, "refresh" asks for `disableCookieCache=true` so the session is looked up
      // in the database and a fresh session-data cookie is signed. See SCENARIOS in run.mjs.
      cookieCache: { enabled: true, maxAge: COOKIE_CACHE_SECONDS },
    },
    // On by default only when NODE_ENV=production; off explicitly so the bench measures the same thing in
    // any environment (Latchkey has no rate limiter in these routes either).
    rateLimit: { enabled: false },
    logger: { level: "error" },
    telemetry: { enabled: false },
  };
}

async function main() {
  const databaseUrl = process.env.BENCH_BA_DATABASE_URL;
  const port = Number(process.env.BENCH_BA_PORT);
  if (!databaseUrl || !Number.isInteger(port)) {
    console.error("better-auth-server: set BENCH_BA_DATABASE_URL and BENCH_BA_PORT");
    process.exit(2);
  }
  const baseURL = `http://127.0.0.1:${port}`;
  const options = betterAuthOptions({ databaseUrl, baseURL });
  const auth = betterAuth(options);
  const server = createServer(toNodeHandler(auth));
  server.listen(port, "127.0.0.1", () => console.log(`Better Auth listening on ${baseURL}`));
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      server.close();
      server.closeAllConnections();
      options.database.end().finally(() => process.exit(0));
    });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
