#!/usr/bin/env node
// The permission check on its hot path: 1,000 team permission definitions nested 5 deep, one member
// holding a few top-level permissions, and the check for a permission 5 levels below them, measured
//   (1) over HTTP, as a developer's server calls it: GET /team-permissions?team_id&user_id&permission_id&recursive=true
//   (2) in process, as routes call it: hasTeamPermission(db, project, team, user, permission)
// Not part of `npm test` (STYLE.md §9). Runs the real server in this process on a fresh database.
//
//   node --conditions=source bench/permissions.mjs [--requests 2000] [--connections 16] [--pglite]
//
// BENCH_DATABASE_URL: an admin URL of a local PostgreSQL (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// the database latchkey_bench_permissions is created and dropped. --pglite uses in-memory PGlite instead.
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { dropDatabase, freshPostgres, pgVersion } from "./bench-database.mjs";

register();
const { values: args } = parseArgs({
  options: { requests: { type: "string", default: "2000" }, connections: { type: "string", default: "16" }, pglite: { type: "boolean", default: false } },
});
const REQUESTS = Number(args.requests);
const CONNECTIONS = Number(args.connections);
const LEVELS = 5;
const PER_LEVEL = 200; // 5 × 200 = 1,000 definitions
const FAN_OUT = 3; // each contains 3 of the next level: overlapping diamonds, not a tree

const src = new URL("../packages/server/src/", import.meta.url);
const { default: pg } = await import("pg");
const { connectDatabase } = await import(new URL("db/connect.ts", src).href);
const { readEnv } = await import(new URL("env.ts", src).href);
const { createLogger } = await import(new URL("log.ts", src).href);
const { startServer } = await import(new URL("server.ts", src).href);
const { createKeySet } = await import(new URL("services/api-keys.ts", src).href);
const { createProject } = await import(new URL("services/projects.ts", src).href);
const { hasTeamPermission } = await import(new URL("services/team-permission-checks.ts", src).href);

const DATABASE = "latchkey_bench_permissions";
const db = args.pglite ? await connectDatabase({ kind: "pglite", dataDir: undefined }) : await freshPostgres(DATABASE, connectDatabase);
const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
const server = await startServer(env, createLogger(env.logLevel), { db });

try {
  const project = await createProject(db, { displayName: "permissions bench", description: null });
  const keys = await createKeySet(db, project.id, { description: "bench", expiresAt: null, kinds: ["secretServerKey", "superSecretAdminKey"] });
  const headers = (access, key) => ({ "content-type": "application/json", "x-stack-project-id": project.id, "x-stack-access-type": access, [`x-stack-${key[0]}`]: key[1] });
  const adminHeaders = headers("admin", ["super-secret-admin-key", keys.super_secret_admin_key]);
  const serverHeaders = headers("server", ["secret-server-key", keys.secret_server_key]);
  const call = async (method, path, hdrs, body) => {
    const response = await fetch(`${server.url}/api/v1${path}`, { method, headers: hdrs, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  // The definitions, written as one config override (as an admin could), then read back through the CRUD list.
  const id = (level, index) => `l${level}:p${index}`;
  const permissions = {};
  for (let level = 0; level < LEVELS; level++) {
    for (let index = 0; index < PER_LEVEL; index++) {
      const contained = level + 1 < LEVELS ? Array.from({ length: FAN_OUT }, (_, k) => [id(level + 1, (index + k) % PER_LEVEL), true]) : [];
      permissions[id(level, index)] = { scope: "team", description: `level ${level}`, containedPermissionIds: Object.fromEntries(contained) };
    }
  }
  await call("PATCH", "/internal/config/override", adminHeaders, { config_override_string: JSON.stringify({ "rbac.permissions": permissions }) });
  const defined = (await call("GET", "/team-permission-definitions", adminHeaders)).items.length;

  const user = await call("POST", "/users", serverHeaders, { display_name: "bench" });
  const team = await db.insertInto("teams").values({ project_id: project.id, display_name: "bench", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null }).returning("id").executeTakeFirstOrThrow();
  await db.insertInto("team_members").values({ project_id: project.id, team_id: team.id, user_id: user.id, display_name: null, profile_image_url: null }).execute();
  for (const index of [0, 50, 100]) await call("POST", `/team-permissions/${team.id}/${user.id}/${id(0, index)}`, serverHeaders, {});

  // l4:p2 is reached from l0:p0 through 4 containments; l4:p199 from none of the held permissions.
  const present = id(LEVELS - 1, 2);
  const absent = id(LEVELS - 1, 199);
  // recursive=true: without it the list holds only direct grants (as the reference answers, issue 13 §3).
  const checkPath = (permission) => `/team-permissions?team_id=${team.id}&user_id=${user.id}&permission_id=${encodeURIComponent(permission)}&recursive=true`;
  const expectCheck = async (permission, expected) => {
    const { items } = await call("GET", checkPath(permission), serverHeaders);
    if ((items.length === 1) !== expected) throw new Error(`check of ${permission} answered ${JSON.stringify(items)}`);
  };

  const firstStart = performance.now();
  await expectCheck(present, true); // compiles the graph of this config version
  const first = performance.now() - firstStart;
  await expectCheck(absent, false);
  const recursiveList = (await call("GET", `/team-permissions?team_id=${team.id}&user_id=${user.id}&recursive=true`, serverHeaders)).items.length;

  const http = await measure(REQUESTS, CONNECTIONS, (i) => expectCheck(i % 2 ? present : absent, i % 2 === 1));
  const direct = await measure(REQUESTS, CONNECTIONS, async (i) => {
    const held = await hasTeamPermission(db, project.id, team.id, user.id, i % 2 ? present : absent);
    if (held !== (i % 2 === 1)) throw new Error("hasTeamPermission answered wrongly");
  });
  // For scale: a read the pipeline serves from its caches, under the same conditions.
  const baseline = await measure(REQUESTS, CONNECTIONS, () => call("GET", `/users/${user.id}`, serverHeaders));
  const sequential = await measure(Math.min(REQUESTS, 500), 1, (i) => expectCheck(i % 2 ? present : absent, i % 2 === 1));

  const database = args.pglite ? "PGlite (in memory)" : `PostgreSQL ${(await pgVersion()) ?? ""}`.trim();
  console.log(`Permission check, ${defined} team definitions (${defined - 6} custom, ${LEVELS} levels, fan-out ${FAN_OUT}), member holds 3 top-level permissions expanding to ${recursiveList}; ${database}, Node ${process.version}`);
  console.log(`  first check after a config change (graph compiled): ${first.toFixed(1)} ms`);
  report("HTTP GET /team-permissions?…&permission_id=… (sequential)", sequential);
  report(`HTTP GET /team-permissions?…&permission_id=… (${CONNECTIONS} concurrent)`, http);
  report(`baseline HTTP GET /users/{id} (${CONNECTIONS} concurrent)`, baseline);
  report(`hasTeamPermission() in process (${CONNECTIONS} concurrent)`, direct);
} finally {
  await server.close();
  await db.destroy();
  if (!args.pglite) await dropDatabase(DATABASE);
}

async function measure(count, concurrency, run) {
  const latencies = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      await run(i);
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { count, perSecond: count / seconds, p50: at(0.5), p99: at(0.99) };
}

function report(label, { count, perSecond, p50, p99 }) {
  console.log(`  ${label}: ${count} checks, ${Math.round(perSecond)}/s, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
}

