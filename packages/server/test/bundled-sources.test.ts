import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { startServer } from "../src/server.js";
import { KnownErrors } from "@latchkey/protocol/errors";

// The run's bundle of the sources (support/source-bundle.mjs, vite.config.ts): what this project's test files import
// from the sources and from the packages the server uses must be the bundle's one instance, or a test would check a
// copy of the server instead of the server it starts. Skipped when the run loads the sources one by one.
const dir = process.env.LATCHKEY_TEST_SOURCE_BUNDLE;

describe.skipIf(!dir || process.env.LATCHKEY_TEST_BUNDLE_SOURCES === "0")("the test files' bundle of the sources", () => {
  const facades = (): Record<string, string> => JSON.parse(readFileSync(`${dir}/map.json`, "utf8"));
  const facadeOf = async (path: string) => import(pathToFileURL(facades()[path]!).href);

  it("gives a test file the bundle's own module for a source it imports", async () => {
    const serverSource = fileURLToPath(new URL("../src/server.ts", import.meta.url));
    expect((await facadeOf(serverSource)).startServer).toBe(startServer);
    const knownErrors = fileURLToPath(new URL("../../protocol/src/errors/index.ts", import.meta.url));
    expect((await facadeOf(knownErrors)).KnownErrors).toBe(KnownErrors);
  });

  it("gives a test file the server's own copy of a package the bundle holds", async () => {
    const [hono] = Object.entries(facades()).find(([path]) => path.endsWith("/hono/dist/http-exception.js")) ?? [];
    expect(hono).toBeDefined();
    expect((await facadeOf(hono!)).HTTPException).toBe(HTTPException);
  });

  it("leaves out the scripts that do their work when loaded", () => {
    const sources = Object.keys(facades()).filter((path) => path.includes("/packages/server/src/"));
    expect(sources.length).toBeGreaterThan(200);
    expect(sources.filter((path) => /\/src\/(main|cli)\.ts$/.test(path))).toEqual([]);
  });
});
