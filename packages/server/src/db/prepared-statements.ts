import { sql } from "kysely";

const PREPARED_MARK = "/* prepared */";
const MAX_PREPARED = 64;
const preparedNames = new Map<string, string>();

/**
 * The end of a statement that a hot path runs over and over (a password sign-in's two): on PostgreSQL every pooled
 * connection prepares it once (a named statement, db/connect.ts), and the server then parses and plans it once per
 * connection rather than once per run (`query.modifyEnd(preparedStatement)`). Only for statements of a few fixed
 * shapes: each distinct text is prepared on every connection, up to MAX_PREPARED texts per process. PGlite runs it as
 * any other.
 */
export const preparedStatement = sql.raw(PREPARED_MARK);

/** The name a marked statement's text is prepared under; undefined for the others. */
export function preparedName(text: string): string | undefined {
  if (!text.endsWith(PREPARED_MARK)) return undefined;
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) preparedNames.set(text, (name = `latchkey_${preparedNames.size + 1}`));
  return name;
}
