import type { TestProject } from "vitest/node";
import emailLibrary from "./email-library.global.js";
import emailSandbox from "./email-sandbox.global.js";
import serverBundle from "./server-bundle.global.js";
import sourceBundle from "./source-bundle.global.js";
import testDatabases from "./test-databases.global.js";

/**
 * vitest global setup: what the run makes once before any test file starts — the databases every test server starts
 * from, the email sandbox's library script and the one sandbox process the run's servers share, the bundled
 * server and the bundle of the sources the test files load — side by side. vitest runs global setup files one
 * after the other, while no test runs: the bundle and the library are built in processes of their own (esbuild), the
 * databases mostly in this one, so one after the other they left a core idle for several seconds (issue 35).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The shared email sandbox starts once the library script it loads is there.
  const library = emailLibrary();
  const sandbox = library.then(() => emailSandbox());
  const settled = await Promise.allSettled([testDatabases(project), library, sandbox, serverBundle(), sourceBundle()]);
  const teardowns = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const teardown = async () => {
    for (const undo of teardowns) await undo();
  };
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  return teardown;
}
