import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFromSources } from "../../src/email-rendering/sandbox-library.mjs";

/**
 * vitest global setup: the email sandbox's library script (React, React Email, arktype, html-to-text), built once
 * for the run from the sources, as the packaged server ships it built. Every sandbox process of the run (one per
 * test server or server process) reads it (LATCHKEY_TEST_EMAIL_LIBRARY) instead of building it again with esbuild:
 * ~0.5 s of CPU each, some 250 times a run (issue 35). A failure here only means each builds its own.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-test-email-library-"));
  try {
    const file = join(dir, "sandbox-library.js");
    writeFileSync(file, await buildFromSources());
    process.env.LATCHKEY_TEST_EMAIL_LIBRARY = file;
  } catch (error) {
    console.warn(`Each email sandbox builds its own library script: ${String(error)}`);
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
