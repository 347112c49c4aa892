// The throwaway PostgreSQL database an in-process bench (permissions, sign-in throttle) works in: made fresh
// at the start, dropped at the end, on the local server BENCH_DATABASE_URL names.
import { withClient } from "./harness.mjs";

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";
const asAdmin = (work) => withClient(adminUrl, work);

/** Recreates the database `name` empty and returns Latchkey's connection to it (`connectDatabase` from the server). */
export async function freshPostgres(name, connectDatabase) {
  await asAdmin(async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  });
  return connectDatabase({ kind: "postgres", url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href });
}

export function dropDatabase(name) {
  return asAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
}

export function pgVersion() {
  return asAdmin(async (admin) => (await admin.query("show server_version")).rows[0].server_version);
}
