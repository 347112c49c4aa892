import { createQueryId, type CompiledQuery, type Compilable, type QueryResult } from "kysely";
import type { Db } from "./connect.js";
import { mayAnnounceChange } from "./announced-writes.js";
import { requestScopeOf } from "./request-scope.js";

/** A value left open in a statement built once: its parameter is filled in at each run (`CompiledOnce.run`). */
class Slot {
  constructor(readonly name: string) {}
}

/** Stand-ins for `values`, one `Slot` per key, typed as the values they stand for (the builders take them as such). */
function slotsFor<Values extends Record<string, unknown>>(values: Values): Values {
  const slots: Record<string, unknown> = {};
  for (const name of Object.keys(values)) slots[name] = new Slot(name);
  return slots as Values;
}

interface Template {
  compiled: CompiledQuery;
  /** Whether the statement may write rows caches are built from (db/announced-writes.ts). */
  announces: boolean;
}

/** How many shapes one statement may have: a few by design; more would mean a shape key that holds values. */
const MAX_SHAPES = 32;

/**
 * A statement a hot path runs over and over with other values (a password sign-in's two): Kysely builds and compiles
 * it once per shape, and each run only fills in its parameters. Building and compiling a statement of a few CTEs took
 * ~15 % of a sign-in's main thread, and most of its garbage (issue 35).
 *
 * `build` (run on the request's `db`) gets stand-ins in place of `values`, which it may only pass on to Kysely as values (never compute with them,
 * compare them or leave one out of the statement when undefined): what the statement's text depends on goes into
 * `shape` instead, which must name every such choice (how many keys a list has, which limits apply). A statement whose
 * first compile saw the request's scope (db/request-scope.ts) tells every later request's scope the same.
 */
export class CompiledOnce<Values extends Record<string, unknown>, Row> {
  private readonly templates = new Map<string, Template>();

  /** Runs the statement of `shape` with `values`; `build` makes it, from stand-ins, when this shape is new. */
  async run(db: Db, shape: string, values: Values, build: (slots: Values) => Compilable<Row>): Promise<QueryResult<Row>> {
    let template = this.templates.get(shape);
    if (!template) {
      const compiled = build(slotsFor(values)).compile();
      template = { compiled, announces: mayAnnounceChange(compiled.query) };
      if (this.templates.size < MAX_SHAPES) this.templates.set(shape, template);
    } else if (template.announces) {
      const scope = requestScopeOf(db);
      if (scope) scope.announcedChanges = true;
    }
    const parameters = template.compiled.parameters.map((parameter) => (parameter instanceof Slot ? values[parameter.name] : parameter));
    return (await db.executeQuery({ ...template.compiled, parameters, queryId: createQueryId() })) as QueryResult<Row>;
  }
}
