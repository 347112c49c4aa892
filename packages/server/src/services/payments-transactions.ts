import { KnownErrors } from "@latchkey/protocol/errors";
import type { AdminTransaction, TransactionType } from "@latchkey/protocol/schemas";
import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import type { PaymentCustomerType } from "../db/schema-payments.js";
import { offerFromSnapshot } from "./payments-offers.js";

/**
 * The admin's list of transactions (issue 32): subscriptions, one-time purchases and item quantity changes,
 * newest first. The three tables are read separately (each through its listing index) and merged; the order
 * is (created_at desc, kind, id desc) with created_at in microseconds, so rows made in the same millisecond
 * keep a stable place. The cursor names the last row returned; it stays valid while rows are added.
 */

export interface TransactionFilter {
  cursor?: string;
  limit: number;
  type?: TransactionType;
  customerType?: PaymentCustomerType;
}

/** Position of each kind among rows of equal time (higher comes first). */
const RANK: Record<TransactionType, number> = { subscription: 3, one_time: 2, item_quantity_change: 1 };
const TABLE = {
  subscription: "payment_subscriptions",
  one_time: "payment_one_time_purchases",
  item_quantity_change: "payment_item_quantity_changes",
} as const;

interface Position { at: string; rank: number; id: string }
type Row = AdminTransaction & { position: Position };

const CURSOR_ERROR = () => new KnownErrors.SchemaError("Invalid cursor");

function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.at, p.rank, p.id])).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  try {
    const [at, rank, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(at)) throw CURSOR_ERROR();
    if (typeof rank !== "number" || typeof id !== "string" || !/^[0-9a-f-]{36}$/.test(id)) throw CURSOR_ERROR();
    return { at, rank, id };
  } catch {
    throw CURSOR_ERROR();
  }
}

/** Whether `a` comes before `b` (newest first). */
function before(a: Position, b: Position): boolean {
  if (a.at !== b.at) return a.at > b.at;
  if (a.rank !== b.rank) return a.rank > b.rank;
  return a.id > b.id;
}

const AT = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function priceOf(offerSnapshot: unknown, priceId: string | null): AdminTransaction["price"] {
  const offer = offerFromSnapshot(offerSnapshot);
  if (priceId === null || offer.prices === "include-by-default" || !Object.prototype.hasOwnProperty.call(offer.prices, priceId)) return null;
  const { serverOnly: _serverOnly, freeTrial: _freeTrial, ...price } = offer.prices[priceId]!;
  return price;
}

async function page(db: Db, projectId: string, type: TransactionType, filter: TransactionFilter, after: Position | undefined): Promise<Row[]> {
  const rank = RANK[type];
  let query = db
    .selectFrom(TABLE[type] as "payment_subscriptions")
    .selectAll()
    .select(AT.as("at"))
    .where("project_id", "=", projectId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit + 1);
  if (filter.customerType) query = query.where("customer_type", "=", filter.customerType);
  if (after) {
    const at = sql<Date>`${after.at}::timestamptz`;
    if (rank < after.rank) query = query.where("created_at", "<=", at);
    else if (rank > after.rank) query = query.where("created_at", "<", at);
    else query = query.where((eb) => eb.or([eb("created_at", "<", at), eb.and([eb("created_at", "=", at), eb("id", "<", after.id)])]));
  }
  const rows = (await query.execute()) as unknown as Record<string, any>[];
  return rows.map((r) => {
    const base = {
      id: r.id as string,
      type,
      created_at_millis: (r.created_at as Date).getTime(),
      customer_type: r.customer_type as PaymentCustomerType,
      customer_id: r.customer_id as string,
      position: { at: r.at as string, rank, id: r.id as string },
    };
    if (type === "item_quantity_change") {
      return {
        ...base, quantity: Number(r.quantity), test_mode: false, offer_display_name: null, price: null, status: null,
        item_id: r.item_id as string, description: (r.description as string | null) ?? null,
        expires_at_millis: r.expires_at ? (r.expires_at as Date).getTime() : null,
      };
    }
    return {
      ...base, quantity: r.quantity as number, test_mode: r.creation_source === "TEST_MODE",
      offer_display_name: offerFromSnapshot(r.offer).displayName, price: priceOf(r.offer, r.price_id as string | null),
      status: type === "subscription" ? (r.status as string) : null,
    };
  });
}

export async function listTransactions(db: Db, projectId: string, filter: TransactionFilter): Promise<{ transactions: AdminTransaction[]; next_cursor: string | null }> {
  const after = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const types = filter.type ? [filter.type] : (Object.keys(TABLE) as TransactionType[]);
  const pages = await Promise.all(types.map((type) => page(db, projectId, type, filter, after)));
  const merged = pages.flat().sort((a, b) => (before(a.position, b.position) ? -1 : before(b.position, a.position) ? 1 : 0));
  const shown = merged.slice(0, filter.limit);
  const next = merged.length > filter.limit ? encodeCursor(shown[shown.length - 1]!.position) : null;
  return { transactions: shown.map(({ position: _position, ...t }) => t), next_cursor: next };
}
