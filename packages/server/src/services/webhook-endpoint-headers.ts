import type { Db } from "../db/connect.js";

/**
 * An endpoint's own headers, sent with each of its deliveries (Svix's endpoint headers; migration 0026), such
 * as an `Authorization` the receiver checks besides the signature. Names are kept in lower case (HTTP names are
 * case-insensitive). Headers the delivery sets itself cannot be chosen: the signing headers, and those that
 * describe the request.
 */

const RESERVED = new Set(["host", "content-type", "content-length", "transfer-encoding", "connection", "user-agent", "expect", "upgrade", "te", "trailer", "keep-alive"]);
const RESERVED_PREFIXES = ["webhook-", "svix-"];
// An HTTP token (RFC 9110) and a field value without control characters.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,256}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
/** Names whose values are credentials: the read answer lists them under `sensitive`, without values, as Svix does. */
const SENSITIVE = /authorization|cookie|secret|token|api-?key|password/;

/** Why the header cannot be set, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "is not a valid header name";
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix))) return "is set by the delivery itself";
  if (!HEADER_VALUE.test(value)) return "has a value with control characters or longer than 4096 characters";
  return undefined;
}

/** The read answer: values of ordinary headers, only the names of credential ones. */
export function presentHeaders(headers: Record<string, string>): { headers: Record<string, string>; sensitive: string[] } {
  const open: Record<string, string> = {};
  const sensitive: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (SENSITIVE.test(name)) sensitive.push(name);
    else open[name] = value;
  }
  return { headers: open, sensitive };
}

export async function readEndpointHeaders(db: Db, endpointId: string): Promise<Record<string, string>> {
  const row = await db.selectFrom("webhook_endpoints").select("headers").where("id", "=", endpointId).executeTakeFirstOrThrow();
  return row.headers;
}

/** Replaces the headers (`replace`), or sets some and removes others (`patch`); a patch reads and writes under a row lock, so two at once both apply. */
export async function writeEndpointHeaders(db: Db, endpointId: string, change: { replace: Record<string, string> } | { set: Record<string, string>; remove: string[] }): Promise<void> {
  const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  await db.transaction().execute(async (trx) => {
    let next: Record<string, string>;
    if ("replace" in change) {
      next = lower(change.replace);
    } else {
      const current = await trx.selectFrom("webhook_endpoints").select("headers").where("id", "=", endpointId).forUpdate().executeTakeFirstOrThrow();
      next = { ...current.headers, ...lower(change.set) };
      for (const name of change.remove) delete next[name.toLowerCase()];
    }
    await trx.updateTable("webhook_endpoints").set({ headers: JSON.stringify(next), updated_at: new Date() }).where("id", "=", endpointId).execute();
  });
}
