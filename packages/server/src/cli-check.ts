import { sql } from "kysely";
import { connectDatabase } from "./db/connect.js";
import { migrationFiles } from "./db/migrate.js";
import { sharedTransport } from "./email/transport.js";
import { readEnv, type Env } from "./env.js";
import { missingProductionSettings } from "./cli-production.js";

/** One printed line: `ok`, `warn` (works, but worth knowing) or `FAIL` (exit code 1). */
type Outcome = { status: "ok" | "warn" | "FAIL"; line: string };

const TIMEOUT_MS = 10_000;

/**
 * `latchkey-server check`: before (or beside) a deployment, what the server will need, one line per check —
 * the configuration, the database, SMTP, the public URL. True when nothing failed.
 */
export async function checkCommand(source: Record<string, string | undefined>): Promise<boolean> {
  const outcomes: Outcome[] = [];
  const print = (outcome: Outcome) => {
    outcomes.push(outcome);
    console.log(`${outcome.status.padEnd(4)} ${outcome.line}`);
  };
  let env: Env;
  try {
    const missing = missingProductionSettings(source);
    if (missing.length > 0) throw new Error(`production mode needs ${missing.join("; ")}`);
    env = readEnv(source);
  } catch (error) {
    print({ status: "FAIL", line: `configuration: ${(error as Error).message.replace(/\n\s*/g, " ")}` });
    return false;
  }
  print({ status: "ok", line: `configuration: ${env.devMode ? "dev mode" : "production mode"}, public URL ${env.publicUrl}` });
  print(await checkDatabase(env));
  print(await checkSmtp(env));
  print(await checkPublicUrl(env));
  return outcomes.every((outcome) => outcome.status !== "FAIL");
}

async function checkDatabase(env: Env): Promise<Outcome> {
  const where = env.databaseUrl ? `PostgreSQL ${new URL(env.databaseUrl).host}${new URL(env.databaseUrl).pathname}` : `embedded PGlite in ${env.dataDir}`;
  let db: Awaited<ReturnType<typeof connectDatabase>> | undefined;
  try {
    db = await withTimeout(connectDatabase(env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: env.dataDir }));
    await sql`select 1`.execute(db);
    const table = await sql<{ exists: boolean }>`select to_regclass('schema_migrations') is not null as exists`.execute(db);
    if (!table.rows[0]?.exists) return { status: "ok", line: `database: ${where} reached; empty (migrated on the first start, or by \`latchkey-server migrate\`)` };
    const done = new Set((await sql<{ name: string }>`select name from schema_migrations`.execute(db)).rows.map((row) => row.name));
    const files = migrationFiles();
    const unknown = [...done].filter((name) => !files.includes(name));
    if (unknown.length > 0) return { status: "FAIL", line: `database: ${where} was migrated by a newer Latchkey (${unknown.join(", ")}): this version refuses to start on it` };
    const pending = files.filter((file) => !done.has(file)).length;
    return { status: "ok", line: `database: ${where} reached; ${done.size} migrations applied, ${pending} pending${pending > 0 ? " (applied on start, or by `latchkey-server migrate`)" : ""}` };
  } catch (error) {
    return { status: "FAIL", line: `database: cannot use ${where}: ${messageOf(error)}` };
  } finally {
    await db?.destroy().catch(() => undefined);
  }
}

async function checkSmtp(env: Env): Promise<Outcome> {
  if (!env.sharedSmtp) {
    return { status: "warn", line: "SMTP: none configured (LATCHKEY_SMTP_URL or LATCHKEY_SMTP_HOST): mail of projects on the shared email server stays in the outbox, unsent" };
  }
  const settings = env.sharedSmtp;
  const where = "url" in settings ? new URL(settings.url).host : `${settings.host}:${settings.port}`;
  const transporter = await sharedTransport(settings);
  try {
    await withTimeout(transporter.verify());
    return { status: "ok", line: `SMTP: ${where} accepted the connection${"url" in settings ? "" : settings.user ? " and the login" : ""}` };
  } catch (error) {
    return { status: "FAIL", line: `SMTP: ${where}: ${messageOf(error)}` };
  } finally {
    transporter.close();
  }
}

/** Any HTTP answer means the name resolves and the proxy (and its TLS) answers; a Latchkey behind it says so. */
async function checkPublicUrl(env: Env): Promise<Outcome> {
  const url = `${env.publicUrl}/health`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" });
    const body = await response.text();
    const latchkey = response.status === 200 && body.includes('"ok"');
    return {
      status: latchkey ? "ok" : "warn",
      line: `public URL: ${url} answered HTTP ${response.status}${latchkey ? "" : " (not a running Latchkey: fine before the first start, otherwise check the proxy)"}`,
    };
  } catch (error) {
    return { status: "FAIL", line: `public URL: ${url} unreachable: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  const message = (error as Error).message || String((error as { code?: string }).code ?? error);
  return cause?.message && !message.includes(cause.message) ? `${message} (${cause.message})` : message;
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
