// bench/scale.mjs's plans: the SQL each scenario runs, recorded from a server inside this process, each statement
// under `EXPLAIN (ANALYZE, BUFFERS)` on the seeded database, and deletes' foreign-key checks. Needs the `source`
// export condition and tsx (scale.mjs restarts under them).
import { createRequire } from "node:module";
import { join } from "node:path";
import { root, withClient } from "./harness.mjs";

const src = new URL("../packages/server/src/", import.meta.url);

/**
 * Runs a server inside this process on the seeded database with a pg client that records each statement, and
 * replays each scenario a few times (the first requests, with cold caches, run the most SQL); `withProject(setup,
 * origin)` (scale.mjs) points the set-up at that server.
 */
export async function captureStatements(databaseUrl, setup, scenarios, withProject) {
  const { readEnv } = await import(new URL("env.ts", src).href);
  const { createLogger } = await import(new URL("log.ts", src).href);
  const { startServer } = await import(new URL("server.ts", src).href);
  const serverPg = createRequire(join(root, "packages/server/package.json"))("pg");
  let recording;
  const original = serverPg.Client.prototype.query;
  serverPg.Client.prototype.query = function (config, values, callback) {
    if (recording) {
      const statement = typeof config === "string" ? config : config?.text;
      const params = Array.isArray(values) ? values : config?.values;
      if (typeof statement === "string") recording.push({ text: statement, values: params ?? [] });
    }
    return original.call(this, config, values, callback);
  };
  const env = readEnv({ LATCHKEY_DATABASE_URL: databaseUrl, LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "error" });
  const server = await startServer(env, createLogger(env.logLevel));
  const captured = new Map();
  try {
    const local = withProject(setup, server.url);
    local.findCursors = setup.findCursors;
    local.deepCursor = setup.deepCursor;
    for (const scenario of scenarios) {
      recording = [];
      await local
        .asClient(async () => {
          const prepared = await scenario.prepare(local);
          recording = [];
          for (let i = 0; i < (scenario.replay ?? 3); i++) {
            const request = prepared.next();
            await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
          }
        })
        .catch((error) => console.error(`scale: could not replay ${scenario.name} for its SQL: ${error.message.split("\n")[0]}`));
      captured.set(scenario.name, recording);
      recording = undefined;
    }
  } finally {
    serverPg.Client.prototype.query = original;
    await server.close();
  }
  return captured;
}

const SKIP = /^\s*(begin|commit|rollback|savepoint|release|set |listen|unlisten|notify|select pg_advisory|select pg_notify|select 1\b|show )/i;

/** EXPLAIN (ANALYZE, BUFFERS) of each distinct statement; writes run in a transaction that is rolled back. */
export async function explainAll(databaseUrl, captured) {
  const plans = new Map();
  await withClient(databaseUrl, async (client) => {
    for (const [scenario, statements] of captured) {
      const seen = new Set();
      const entries = [];
      for (const { text, values } of statements) {
        if (SKIP.test(text) || seen.has(text)) continue;
        seen.add(text);
        const isWrite = !/^\s*(select|with\b(?![\s\S]*\b(insert|update|delete)\b))/i.test(text);
        try {
          await client.query("begin");
          const { rows } = await client.query(`explain (analyze, buffers) ${text}`, values);
          entries.push({ text, plan: rows.map((r) => r["QUERY PLAN"]).join("\n"), isWrite });
        } catch (error) {
          entries.push({ text, plan: `(could not explain: ${error.message})`, isWrite });
        } finally {
          await client.query("rollback");
        }
      }
      plans.set(scenario, entries);
    }
  });
  return plans;
}

/**
 * A delete checks every foreign key that points at the row, reading the referencing table through an index if
 * there is one, or whole. Deletes of a seeded team (`DELETE /teams/{id}`), user (`DELETE /users/{id}`) and
 * session (sign-out) under EXPLAIN ANALYZE, rolled back: the time of each foreign-key trigger.
 */
export async function explainDeletes(databaseUrl, setup) {
  const targets = [
    ["a team (DELETE /teams/{id})", "teams", "select id from teams where project_id = $1 and id <> $2 order by id limit 1", [setup.projectId, setup.bigTeamId]],
    ["a user in a team, with a session (DELETE /users/{id})", "users", "select user_id as id from team_members where project_id = $1 and team_id <> $2 and user_id in (select user_id from sessions) order by user_id limit 1", [setup.projectId, setup.bigTeamId]],
    ["a session (sign-out)", "sessions", "select id from sessions where project_id = $1 order by id limit 1", [setup.projectId]],
  ];
  const results = [];
  await withClient(databaseUrl, async (client) => {
    for (const [name, table, find, values] of targets) {
      const id = (await client.query(find, values)).rows[0]?.id;
      if (!id) continue;
      try {
        await client.query("begin");
        const { rows } = await client.query(`explain (analyze, buffers) delete from ${table} where id = $1`, [id]);
        results.push({ name, plan: rows.map((r) => r["QUERY PLAN"]).join("\n") });
      } catch (error) {
        results.push({ name, plan: `(could not explain: ${error.message})` });
      } finally {
        await client.query("rollback");
      }
    }
  });
  return results;
}
