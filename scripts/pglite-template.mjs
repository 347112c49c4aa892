#!/usr/bin/env node
// Makes the embedded database's template (packages/server/src/db/pglite-template.ts) when there is none for
// the current migrations. Run by `npm ci` / `npm install` (the root's postinstall), so that the first
// `npm start` on a machine only copies it into the new data dir instead of running PostgreSQL's initdb in
// WebAssembly (~2.5 s, issue 17: first start ≤ 3 s). When migrations change later, the first server start
// on an empty data dir makes the new one, as before.
//
//   node scripts/pglite-template.mjs [templates dir]   (default: node_modules/.cache/latchkey/, tests pass their own)
//
// Never fails the install: without a template the server only starts the slow way once.
const templatesDir = process.argv[2];
try {
  // Imported here, not above: an install without devDependencies has no tsx, and must not fail for it.
  const { register } = await import("tsx/esm/api");
  register();
  const { ensureTemplate } = await import("../packages/server/src/db/pglite-template.ts");
  const made = await ensureTemplate({ templatesDir, announce: (message) => console.log(`Latchkey: ${message}…`) });
  if (!made) console.log("Latchkey: could not make the embedded database template now; the first start on an empty data dir will.");
} catch (error) {
  console.log(`Latchkey: could not make the embedded database template now (${error instanceof Error ? error.message : error}); the first start on an empty data dir will.`);
}
