import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../http/context.js";
import { unbuiltAnswer } from "../ui-builds.js";
import elementsPackage from "../../../elements/package.json" with { type: "json" };

/**
 * The script-tag bundles of @latchkey/elements, served by the server itself in every mode (issue 16 §5):
 * `/static/<version>/…` (the elements' exact version: cached for a year, immutable) and `/static/v1/…` (the
 * stable path the README's snippet uses: follows upgrades, so cached for an hour and revalidated by ETag).
 * Files: `latchkey.iife.js` (every element, the `Latchkey` global), `latchkey-sign-in.iife.js` (sign-in only),
 * `latchkey.js` (ESM), and what the bundles fetch next to themselves on first use: `latchkey-account.js` (the
 * account and team management elements), `latchkey-webauthn.js` (the passkey library), `latchkey-qr.js` (the
 * QR code of two-factor setup) and `locales/<locale>.json`. Compressed with
 * brotli or gzip as the browser accepts, once per file and process.
 */
const dist = fileURLToPath(new URL("../../../elements/dist/", import.meta.url));
const BUNDLES = new Set(["latchkey.iife.js", "latchkey-sign-in.iife.js", "latchkey.js", "latchkey-webauthn.js", "latchkey-qr.js", "latchkey-account.js"]);
const LOCALE_FILE = /^[a-zA-Z]{2}(-[a-zA-Z]{2})?\.json$/;
export const STATIC_VERSION = elementsPackage.version;

interface Prepared {
  raw: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}
const prepared = new Map<string, Promise<Prepared | undefined>>();

function prepare(path: string): Promise<Prepared | undefined> {
  let entry = prepared.get(path);
  if (!entry) {
    entry = readFile(dist + path).then(
      (raw) => ({
        raw,
        gzip: gzipSync(raw, { level: 9 }),
        brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        etag: `"${createHash("sha256").update(raw).digest("base64url").slice(0, 22)}"`,
      }),
      () => undefined,
    );
    prepared.set(path, entry);
    // A missing file may be built later (npm run build:elements): ask the disk again next time.
    void entry.then((found) => found ?? prepared.delete(path));
  }
  return entry;
}

async function serve(c: Context<AppEnv>, path: string, immutable: boolean): Promise<Response> {
  // While `npm start` builds the bundle (ui-builds.ts): nothing read, so nothing older kept in `prepared`.
  const unbuilt = unbuiltAnswer("elements", "file");
  if (unbuilt) return unbuilt;
  const file = await prepare(path);
  if (!file) return c.text("Not built yet: run `npm run build:elements` (`npm start` builds it), then reload.", 404);
  const headers: Record<string, string> = {
    "content-type": path.endsWith(".json") ? "application/json; charset=utf-8" : "text/javascript; charset=utf-8",
    "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    etag: file.etag,
    vary: "accept-encoding",
    // Pages on any origin load them; ES modules and fetched locales need CORS for that.
    "access-control-allow-origin": "*",
    "cross-origin-resource-policy": "cross-origin",
    "x-content-type-options": "nosniff",
  };
  if (c.req.header("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
  const accepted = c.req.header("accept-encoding") ?? "";
  if (/\bbr\b/.test(accepted)) return new Response(new Uint8Array(file.brotli), { headers: { ...headers, "content-encoding": "br" } });
  if (/\bgzip\b/.test(accepted)) return new Response(new Uint8Array(file.gzip), { headers: { ...headers, "content-encoding": "gzip" } });
  return new Response(new Uint8Array(file.raw), { headers });
}

export function staticBundlesRoutes() {
  const app = new Hono<AppEnv>();
  for (const version of ["v1", STATIC_VERSION]) {
    const immutable = version !== "v1";
    app.get(`/static/${version}/:file`, (c) => (BUNDLES.has(c.req.param("file")) ? serve(c, c.req.param("file"), immutable) : c.notFound()));
    app.get(`/static/${version}/locales/:file`, (c) => (LOCALE_FILE.test(c.req.param("file")) ? serve(c, `locales/${c.req.param("file")}`, immutable) : c.notFound()));
  }
  return app;
}
