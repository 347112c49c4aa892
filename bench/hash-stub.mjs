// Bench only, never loaded by the server on its own: `node --import bench/hash-stub.mjs` makes the server's argon2id
// verifications answer "matches" without hashing (after BENCH_HASH_STUB_MS milliseconds, default 0: the next turn of
// the event loop), so that a sign-in bench measures and profiles the work beside the hash alone — without the hash's
// ~15 ms of CPU per sign-in competing for the machine's cores and capping the rate. `sign-in-cpu.mjs --stub-hash`
// uses it. Hashing (sign-up) stays real, so stored hashes keep our parameters and sign-ins take the usual path.
import { register } from "node:module";

if (import.meta.url.endsWith("?loader")) {
  // Nothing: this copy is the loader (below).
} else {
  register(new URL("?loader", import.meta.url).href, import.meta.url);
}

const STUB = new URL("?argon2", import.meta.url).href;

/** Loader hook: the server's `@node-rs/argon2` becomes this module's stub; the stub itself gets the real one. */
export async function resolve(specifier, context, next) {
  if (specifier === "@node-rs/argon2" && !context.parentURL?.startsWith(new URL(import.meta.url).href.split("?")[0])) return { url: STUB, shortCircuit: true, format: "module" };
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url !== STUB) return next(url, context);
  const source = `
    import { createRequire } from "node:module";
    const real = createRequire(process.cwd() + "/packages/server/package.json")("@node-rs/argon2");
    const delay = Number(process.env.BENCH_HASH_STUB_MS ?? 0);
    export const hash = real.hash;
    export const verify = () => new Promise((resolve) => setTimeout(() => resolve(true), delay));
    export const Algorithm = real.Algorithm;
    export default { ...real, verify };
  `;
  return { format: "module", source, shortCircuit: true };
}
