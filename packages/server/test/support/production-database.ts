import pg from "pg";
import { readEnv, type Env } from "../../src/env.js";
import { createLogger } from "../../src/log.js";
import { startServer, type RunningServer } from "../../src/server.js";
import { PRODUCTION, type TestServer, type TestProject } from "./test-server.js";

// For the production guide's tests (issue 34): servers started on a PostgreSQL database by URL, as a deployment
// runs them (the server opens its own pool and migrates), and the API calls a returning user makes.

/** A new, empty database on the suite's PostgreSQL; `drop` removes it (and any connection left on it). */
export async function freshPostgresDatabase(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL!;
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

async function adminQuery(query: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.LATCHKEY_TEST_DATABASE_URL! });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/** A production-mode server on the database at `url` (it migrates it), with `vars` added to its environment. */
export async function startServerOn(url: string, vars: Record<string, string> = {}): Promise<TestServer> {
  const env: Env = readEnv({ ...PRODUCTION, LATCHKEY_DATABASE_URL: url, LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent", LATCHKEY_CHECK_RESPONSES: "true", ...vars });
  const server: RunningServer = await startServer(env, createLogger(env.logLevel));
  return { ...server, env };
}

export interface Tokens {
  user_id: string;
  access_token: string;
  refresh_token: string;
}

async function call(server: { url: string }, project: TestProject, path: string, init: { body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method: init.body === undefined ? (path.endsWith("/refresh") ? "POST" : "GET") : "POST",
    headers: { ...project.headers("client"), ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json() };
}

export const signUp = (server: { url: string }, project: TestProject, email: string, password: string) =>
  call(server, project, "/auth/password/sign-up", { body: { email, password } });
export const signIn = (server: { url: string }, project: TestProject, email: string, password: string) =>
  call(server, project, "/auth/password/sign-in", { body: { email, password } });
export const refresh = (server: { url: string }, project: TestProject, refreshToken: string) =>
  call(server, project, "/auth/sessions/current/refresh", { headers: { "x-stack-refresh-token": refreshToken } });
export const me = (server: { url: string }, project: TestProject, accessToken: string) => call(server, project, "/users/me", { headers: { "x-stack-access-token": accessToken } });
