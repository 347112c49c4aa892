import { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";

/**
 * PGlite's own start parameters, with 32 MB of shared buffers instead of the 128 MB of PostgreSQL's default
 * configuration: PostgreSQL zeroes all of it when it starts, ~0.15 s of a start's CPU in WebAssembly and 100 MB
 * of memory (issue 35, bench/cold-start.mjs). An embedded development database of a few thousand users fits; the
 * files read past that come from the operating system's cache.
 */
export function pgliteStartParams(sharedBuffers = "32MB"): string[] {
  return [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`];
}

export const PGLITE_START_PARAMS = pgliteStartParams();

/**
 * Kysely over embedded PGlite. PGlite is one connection, so connections are handed out one at a time:
 * a transaction holds the only connection until it commits, exactly like a pool of size one.
 */
export class PGliteDialect implements Dialect {
  /** `onClosed`: runs once the database is closed (the data dir's lock is released there). */
  constructor(
    private readonly pglite: PGlite,
    private readonly onClosed: () => void = () => {},
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.onClosed);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  private releaseCurrent: (() => void) | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly onClosed: () => void,
  ) {
    this.connection = new PGliteConnection(pglite);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseCurrent = release;
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin"));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection() {
    const release = this.releaseCurrent;
    this.releaseCurrent = undefined;
    release?.();
  }
  async destroy() {
    await this.queue;
    try {
      await this.pglite.close();
    } finally {
      this.onClosed();
    }
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters the simple protocol is used, which also runs multi-statement migration scripts.
    const result =
      compiled.parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows as R[],
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported on PGlite");
  }
}
