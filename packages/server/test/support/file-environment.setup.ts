import { afterAll } from "vitest";

/**
 * vitest setup file of every project: the test files share their worker threads (vite.config.ts), so what a file
 * changes in process.env would reach the files after it in the same thread. Some files must change it (the email
 * renderer's files delete the shared sandbox's socket to fork a sandbox of their own; the core's middleware example
 * sets the variables its example reads): the variables are as the file found them once its last hook has run.
 */
const found = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in found)) delete process.env[name];
  Object.assign(process.env, found);
});
