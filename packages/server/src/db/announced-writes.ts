import type { ColumnNode, ColumnUpdateNode, OperationNode, RootOperationNode, TableNode } from "kysely";

type Operation = "insert" | "update" | "delete";
const ALL: ReadonlySet<Operation> = new Set(["insert", "update", "delete"]);

/**
 * The tables whose changes the caches hear of, by the operations that announce them: the change-notification
 * triggers of migrations 0008, 0015, 0019, 0026 and 0029 (a test compares this with the database's triggers).
 * A write to any other table sends no notification, so there is nothing for a request to wait for.
 */
export const ANNOUNCED_WRITES: Readonly<Record<string, ReadonlySet<Operation>>> = {
  projects: ALL,
  api_key_sets: ALL,
  users: ALL,
  contact_channels: ALL,
  oauth_accounts: ALL,
  teams: ALL,
  signing_key_generations: ALL,
  webhook_endpoints: ALL,
  // No cache can hold a session before it exists.
  sessions: new Set(["update", "delete"]),
};

/**
 * An update that sets only these columns is not waited for: a user's last activity is written at most once a
 * minute (services/sessions.ts), so it is approximate by design, and a cached record a few milliseconds behind
 * it tells nothing the minute does not. Its notification still drops the cached record.
 */
const ACTIVITY_COLUMNS: Readonly<Record<string, ReadonlySet<string>>> = { users: new Set(["last_active_at"]) };

/**
 * Whether running the query may send change notifications that the request's caller must not outrun
 * (app.ts waits for them before answering). Raw SQL other than a plain select, and any shape not recognised
 * here, is assumed to.
 */
export function mayAnnounceChange(node: RootOperationNode): boolean {
  if ("with" in node && node.with?.expressions.some((cte) => mayAnnounceChange(cte.expression as RootOperationNode))) return true;
  switch (node.kind) {
    case "SelectQueryNode":
      return false;
    case "InsertQueryNode":
      return announces(node.into, "insert");
    case "UpdateQueryNode":
      if (node.table?.kind !== "TableNode") return true;
      if (onlyActivityColumns(tableName(node.table as TableNode), node.updates ?? [])) return false;
      return announces(node.table, "update");
    case "DeleteQueryNode":
      return node.from.froms.length !== 1 || announces(node.from.froms[0], "delete");
    case "RawNode":
      return rawMayAnnounce(node.sqlFragments.join("?"));
    default:
      return true;
  }
}

/**
 * Raw SQL by its first words: a plain select reads; `insert into t`, `update t`, `delete from t` write `t` only
 * (PostgreSQL allows writing CTEs at the top of a statement only, which starts it with `with`), also in parentheses,
 * as the body of a CTE is written.
 */
function rawMayAnnounce(text: string): boolean {
  if (/^\s*select\b/i.test(text)) return false;
  const write = /^\s*\(?\s*(insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)[\s(]/i.exec(text);
  if (!write) return true;
  const operation: Operation = write[1]!.toLowerCase().startsWith("insert") ? "insert" : write[1]!.toLowerCase() === "update" ? "update" : "delete";
  return ANNOUNCED_WRITES[write[2]!.toLowerCase()]?.has(operation) ?? false;
}

function announces(table: OperationNode | undefined, operation: Operation): boolean {
  if (table?.kind !== "TableNode") return true;
  const { schema } = (table as TableNode).table;
  if (schema && schema.name !== "public") return true;
  return ANNOUNCED_WRITES[tableName(table as TableNode)]?.has(operation) ?? false;
}

function tableName(table: TableNode): string {
  return table.table.identifier.name;
}

function onlyActivityColumns(table: string, updates: ReadonlyArray<ColumnUpdateNode>): boolean {
  const allowed = ACTIVITY_COLUMNS[table];
  if (!allowed || updates.length === 0) return false;
  return updates.every(({ column }) => column.kind === "ColumnNode" && allowed.has((column as ColumnNode).column.name));
}
