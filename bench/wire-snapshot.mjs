#!/usr/bin/env node
// The exact bytes of a few answers of the cached read path (status line, headers in their order, body), with
// what varies between runs masked (dates, ids, tokens, times): a before/after check that a performance change
// left the wire as it was. Starts Latchkey from `--root` (default: this checkout) on a fresh database.
//
//   node bench/wire-snapshot.mjs [--root /tmp/base] > after.txt   (then diff against a run on the other root)
import { connect } from "node:net";
import { resolve } from "node:path";
import { adminDatabaseUrl, childProcesses, databaseUrlOf, dropDatabases, freePort, latchkeyEnv, optionReader, recreateDatabases, root, sourceCommand, waitUntilUp } from "./harness.mjs";

const { text } = optionReader(process.argv.slice(2), "wire-snapshot");
const serverRoot = resolve(text("root") ?? root);
const adminUrl = adminDatabaseUrl("wire-snapshot");
const database = `latchkey_bench_wire_snapshot_${process.pid}`;
const children = childProcesses((message) => {
  console.error(message);
  process.exit(1);
});

await recreateDatabases(adminUrl, [database]);
const port = await freePort();
const [command, args] = sourceCommand(resolve(serverRoot, "packages/server/src/main.ts"));
children.start("Latchkey", command, args, latchkeyEnv({ databaseUrl: databaseUrlOf(adminUrl, database), port }));
const origin = `http://127.0.0.1:${port}`;
await waitUntilUp(`${origin}/health`);

const stack = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": "this-publishable-client-key-is-for-local-development-only",
};
const hexclave = Object.fromEntries(Object.entries(stack).map(([k, v]) => [k.replace("x-stack-", "x-hexclave-"), v]));
const signUp = await fetch(`${origin}/api/v1/auth/password/sign-up`, {
  method: "POST",
  headers: { ...stack, "content-type": "application/json" },
  body: JSON.stringify({ email: "wire@example.com", password: "wire-Password-0123456789" }),
}).then((r) => r.json());
const { access_token: accessToken, refresh_token: refreshToken } = signUp;

const requests = [
  ["GET", "/api/v1/users/me", { ...stack, "x-stack-access-token": accessToken }],
  ["GET", "/api/v1/users/me", { ...hexclave, "x-hexclave-access-token": accessToken }],
  ["GET", "/api/v1/users/me", { ...stack, "x-stack-access-type": "server", "x-stack-access-token": accessToken }],
  ["GET", "/api/latest/users/me", { ...stack, "x-stack-access-token": accessToken }],
  ["GET", "/api/v1/users/me", { ...stack }],
  ["GET", "/api/v1/users/me", { ...stack, "x-stack-access-token": "not-a-token" }],
  ["GET", "/api/v1/users/me", { ...stack, "x-stack-access-token": "not-a-token", "x-stack-override-error-status": "true" }],
  ["GET", "/api/v1/users/me?x=1", { ...stack, "x-stack-access-token": accessToken }],
  ["GET", "/api/v1/users/me", { ...stack, ...hexclave }],
  ["POST", "/api/v1/auth/sessions/current/refresh", { ...stack, "x-stack-refresh-token": refreshToken }],
  ["POST", "/api/v1/auth/sessions/current/refresh", { ...hexclave, "x-hexclave-refresh-token": refreshToken }],
  ["POST", "/api/v1/auth/sessions/current/refresh", { ...stack, "x-stack-refresh-token": "nope" }],
  ["OPTIONS", "/api/v1/users/me", { "access-control-request-headers": "x-stack-access-token" }],
  ["HEAD", "/api/v1/users/me", { ...stack, "x-stack-access-token": accessToken }],
  ["GET", "/api/v1/projects/internal/.well-known/jwks.json", {}],
  ["POST", "/api/v1/auth/password/sign-in", { ...stack, "content-type": "application/json" }, JSON.stringify({ email: "wire@example.com", password: "wire-Password-0123456789" })],
  ["POST", "/api/v1/auth/oauth/token", { "content-type": "application/x-www-form-urlencoded" }, `grant_type=refresh_token&client_id=internal&client_secret=this-publishable-client-key-is-for-local-development-only&refresh_token=${refreshToken}`],
  ["GET", "/api/v1", {}],
  ["GET", "/health", {}],
  ["GET", "/nowhere", {}],
];
for (const [method, path, headers, body] of requests) {
  console.log(`=== ${method} ${path} ${Object.keys(headers).join(",")}`);
  console.log(mask(await raw(method, path, headers, body)));
}
await children.stopAll();
await dropDatabases(adminUrl, [database]);

function raw(method, path, headers, body = "") {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks = [];
    const lines = [`${method} ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, "connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (method === "POST") lines.push(`content-length: ${Buffer.byteLength(body)}`);
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolvePromise(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}

function mask(answer) {
  return answer
    .replace(/^(date: ).*$/gim, "$1<date>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, "<jwt>")
    .replace(/"(access_token|refresh_token)":"[^"]*"/g, '"$1":"<token>"')
    .replace(/_millis":\d+/g, '_millis":<millis>')
    .replace(/^(x-latchkey-device-token: ).*$/gim, "$1<device token>")
    .replace(/"(x|y|kid)":"[^"]*"/g, '"$1":"<key>"')
    .replace(/\r\n/g, "␍\n");
}
