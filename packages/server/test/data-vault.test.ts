import { describe, expect, it, onTestFinished } from "vitest";
import { getProject } from "../src/services/projects.js";
import { getDataVaultValue, rotateVaultKeys } from "../src/services/data-vault.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverSecretKeyWrapper, vaultKeyWrapperFor, type KeyWrapper } from "../src/crypto/vault-key-wrapper.js";
import { openVaultValue, sealVaultValue, vaultContext } from "../src/crypto/vault-envelope.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { stackSdk } from "./support/stack-sdk.js";
import { as, configure, expectKnownError, expectSchemaError, server, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

async function vaultProject(stores: string[] = ["tokens"]): Promise<TestProject> {
  const project = await createTestProject(server);
  await configure(project, Object.fromEntries(stores.map((id) => [`dataVault.stores.${id}`, { displayName: `Store ${id}` }])));
  return project;
}

const set = (project: TestProject, store: string, hashedKey: string, encryptedValue: string, access: "server" | "admin" = "server") =>
  as(project, access, `/data-vault/stores/${store}/set`, { body: { hashed_key: hashedKey, encrypted_value: encryptedValue } });
const get = (project: TestProject, store: string, hashedKey: string, access: "server" | "admin" = "server") =>
  as(project, access, `/data-vault/stores/${store}/get`, { body: { hashed_key: hashedKey } });

const rowsOf = (project: TestProject) => server.db.selectFrom("data_vault_entries").selectAll().where("project_id", "=", project.projectId).execute();

describe("the data vault's routes", () => {
  it("store a value per hashed key for server and admin callers, replace it on a second set, and answer {success: true}", async () => {
    const project = await vaultProject();
    const stored = await set(project, "tokens", "aGFzaA==", "first");
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ success: true });
    expect((await get(project, "tokens", "aGFzaA==")).body).toEqual({ encrypted_value: "first" });
    expect((await set(project, "tokens", "aGFzaA==", "second", "admin")).body).toEqual({ success: true });
    expect((await get(project, "tokens", "aGFzaA==", "admin")).body).toEqual({ encrypted_value: "second" });
    // An empty value is a value.
    await set(project, "tokens", "ZW1wdHk=", "");
    expect((await get(project, "tokens", "ZW1wdHk=")).body).toEqual({ encrypted_value: "" });
  });

  it("answer DATA_VAULT_STORE_DOES_NOT_EXIST and DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST with the reference's details", async () => {
    const project = await vaultProject();
    const noStore = await set(project, "nope", "aGFzaA==", "x");
    expectKnownError(noStore, "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
    expect(noStore.body).toEqual({ code: "DATA_VAULT_STORE_DOES_NOT_EXIST", error: "Data vault store with ID nope does not exist.", details: { store_id: "nope" } });
    expectKnownError(await get(project, "nope", "aGFzaA=="), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
    const noKey = await get(project, "tokens", "bWlzc2luZw==");
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({
      code: "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
      error: "Data vault store with ID tokens does not contain a key with hash bWlzc2luZw==.",
      details: { store_id: "tokens", hashed_key: "bWlzc2luZw==" },
    });
  });

  it("refuse an empty or overlong hashed key as a SCHEMA_ERROR and client callers outright", async () => {
    const project = await vaultProject();
    expectSchemaError(await set(project, "tokens", "", "x"), "body.hashed_key must not be empty");
    expectSchemaError(await get(project, "tokens", ""), "body.hashed_key must not be empty");
    // Latchkey's bound (an index entry): far above the SDKs' 44 characters.
    expectSchemaError(await set(project, "tokens", "k".repeat(1025), "x"), "body.hashed_key must be at most 1024 characters");
    expect((await set(project, "tokens", "k".repeat(1024), "x")).status).toBe(200);
    const client = await as(project, "client", "/data-vault/stores/tokens/get", { body: { hashed_key: "aGFzaA==" } });
    expectKnownError(client, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("leave one row after 16 parallel sets of one key, holding one of the values sent", async () => {
    const project = await vaultProject();
    const values = Array.from({ length: 16 }, (_, i) => `value-${i}`);
    const answers = await Promise.all(values.map((value) => set(project, "tokens", "cGFyYWxsZWw=", value)));
    expect(answers.map((a) => a.status)).toEqual(values.map(() => 200));
    expect(await rowsOf(project)).toHaveLength(1);
    expect(values).toContain((await get(project, "tokens", "cGFyYWxsZWw=")).body.encrypted_value);
  });

  it("keep a 100 KB value whole", async () => {
    const project = await vaultProject();
    const value = "v".repeat(50_000) + "é".repeat(25_000);
    expect((await set(project, "tokens", "Ymln", value)).status).toBe(200);
    expect((await get(project, "tokens", "Ymln")).body.encrypted_value).toBe(value);
  });

  it("keep projects and stores apart: one project's key is not found in another's store of the same id", async () => {
    const [a, b] = [await vaultProject(["tokens", "other"]), await vaultProject()];
    await set(a, "tokens", "c2hhcmVk", "a's value");
    expectKnownError(await get(b, "tokens", "c2hhcmVk"), "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    expectKnownError(await get(a, "other", "c2hhcmVk"), "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    await set(b, "tokens", "c2hhcmVk", "b's value");
    expect((await get(a, "tokens", "c2hhcmVk")).body.encrypted_value).toBe("a's value");
    expect((await get(b, "tokens", "c2hhcmVk")).body.encrypted_value).toBe("b's value");
  });
});

describe("the data vault at rest", () => {
  it("holds neither the value nor its key in clear, and a row copied to another project, store or key does not open", async () => {
    const [a, b] = [await vaultProject(["tokens", "other"]), await vaultProject()];
    await set(a, "tokens", "Y29weQ==", "secret-value-in-clear");
    const [row] = await rowsOf(a);
    expect(Buffer.from(row!.sealed_value).toString("latin1")).not.toContain("secret-value-in-clear");
    for (const [projectId, storeId, hashedKey] of [[b.projectId, "tokens", "Y29weQ=="], [a.projectId, "other", "Y29weQ=="], [a.projectId, "tokens", "b3RoZXI="]] as const) {
      await server.db.insertInto("data_vault_entries").values({ ...row!, project_id: projectId, store_id: storeId, hashed_key: hashedKey, created_at: undefined }).execute();
    }
    expectKnownError(await get(b, "tokens", "Y29weQ=="), "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    expectKnownError(await get(a, "other", "Y29weQ=="), "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    expectKnownError(await get(a, "tokens", "b3RoZXI="), "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400);
    expect((await get(a, "tokens", "Y29weQ==")).body.encrypted_value).toBe("secret-value-in-clear");
  });

  it("opens rows sealed under a previous server secret, and rotate-vault-keys re-wraps them under the current one", async () => {
    const project = await vaultProject();
    await set(project, "tokens", "cm90YXRl", "before rotation");
    const projectRow = await getProject(server.db, project.projectId);
    const rotated = { ...server.env, serverSecret: "a-new-server-secret-of-at-least-32-chars!", previousServerSecrets: [server.env.serverSecret] };
    const alone = { ...server.env, serverSecret: "a-new-server-secret-of-at-least-32-chars!", previousServerSecrets: [] };
    expect(await getDataVaultValue({ db: server.db, env: rotated }, projectRow, "tokens", "cm90YXRl")).toBe("before rotation");
    // Without the old secret the row does not open: it reads as not found, never as other bytes.
    await expect(getDataVaultValue({ db: server.db, env: alone }, projectRow, "tokens", "cm90YXRl")).rejects.toMatchObject({ code: "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST" });

    const before = (await rowsOf(project))[0]!;
    const result = await rotateVaultKeys({ db: server.db, env: rotated });
    expect(result.rewrapped).toBeGreaterThanOrEqual(1);
    const after = (await rowsOf(project))[0]!;
    expect(after.kek_id).not.toBe(before.kek_id);
    expect(Buffer.from(after.sealed_value)).toEqual(Buffer.from(before.sealed_value));
    expect(await getDataVaultValue({ db: server.db, env: alone }, projectRow, "tokens", "cm90YXRl")).toBe("before rotation");
    // A second run finds nothing left under the old secret for this project.
    expect((await rotateVaultKeys({ db: server.db, env: alone })).rewrapped).toBe(0);
  });

  it("wraps data keys through the KeyWrapper interface, so another key-encryption key (a KMS) can stand in", async () => {
    // A stand-in KMS: its own key, its own key id; the envelope code sees only the interface.
    const kms = serverSecretKeyWrapper({ serverSecret: "kms-held-key-material-that-is-long-enough", previousServerSecrets: [] });
    const calls: string[] = [];
    const wrapper: KeyWrapper = {
      currentKeyId: () => kms.currentKeyId(),
      wrap: (key, context) => (calls.push("wrap"), kms.wrap(key, context)),
      unwrap: (wrapped, keyId, context) => (calls.push("unwrap"), kms.unwrap(wrapped, keyId, context)),
    };
    const context = vaultContext("p", "s", "k");
    const sealed = await sealVaultValue(wrapper, context, "through a KMS");
    expect(sealed.wrappedDataKey.length).toBeGreaterThan(32);
    expect(await openVaultValue(wrapper, context, sealed)).toBe("through a KMS");
    expect(await openVaultValue(serverSecretKeyWrapper({ serverSecret: server.env.serverSecret, previousServerSecrets: [] }), context, sealed)).toBeUndefined();
    expect(calls).toEqual(["wrap", "unwrap"]);
  });
});

describe("LATCHKEY_VAULT_KEY_WRAPPER", () => {
  it("loads an operator's module exporting createKeyWrapper, given the server's secrets, and refuses one without it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "latchkey-kms-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    // An operator's wrapper (as a KMS client would be): AES-256-GCM under its own key, named "kms-v1".
    await writeFile(join(dir, "kms.mjs"), `
      import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
      export function createKeyWrapper({ serverSecret }) {
        const key = createHash("sha256").update("kms:" + serverSecret).digest();
        return {
          currentKeyId: () => "kms-v1",
          async wrap(dataKey, context) {
            const iv = randomBytes(12), c = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(context));
            const body = Buffer.concat([c.update(dataKey), c.final()]);
            return { wrapped: new Uint8Array(Buffer.concat([iv, body, c.getAuthTag()])), keyId: "kms-v1" };
          },
          async unwrap(wrapped, keyId, context) {
            if (keyId !== "kms-v1") return undefined;
            const b = Buffer.from(wrapped), d = createDecipheriv("aes-256-gcm", key, b.subarray(0, 12)).setAAD(Buffer.from(context));
            d.setAuthTag(b.subarray(b.length - 16));
            try { return new Uint8Array(Buffer.concat([d.update(b.subarray(12, b.length - 16)), d.final()])); } catch { return undefined; }
          },
        };
      }`);
    await writeFile(join(dir, "empty.mjs"), "export const nothing = 1;");
    const wrapper = await vaultKeyWrapperFor({ serverSecret: "s".repeat(40), previousServerSecrets: [] }, join(dir, "kms.mjs"));
    expect(await wrapper.currentKeyId()).toBe("kms-v1");
    const sealed = await sealVaultValue(wrapper, "ctx", "kms-sealed");
    expect(sealed.kekId).toBe("kms-v1");
    expect(await openVaultValue(wrapper, "ctx", sealed)).toBe("kms-sealed");
    await expect(vaultKeyWrapperFor({ serverSecret: "t".repeat(40), previousServerSecrets: [] }, join(dir, "empty.mjs"))).rejects.toThrow(/does not export a createKeyWrapper function/);
  });
});

describe("the reference SDK (@stackframe/js 2.8.41) on the data vault", () => {
  it("sets and gets a value, reads a wrong secret as null, and throws for a store that does not exist", async () => {
    const project = await vaultProject();
    const app = stackSdk(server, project).server();
    const store = await app.getDataVaultStore("tokens");
    await store.setValue("github:user-1", "gho_token", { secret: "app-secret-1" });
    expect(await store.getValue("github:user-1", { secret: "app-secret-1" })).toBe("gho_token");
    expect(await store.getValue("github:user-1", { secret: "another-secret" })).toBeNull();
    const stored = (await rowsOf(project))[0]!;
    expect(stored.hashed_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await expect((await app.getDataVaultStore("missing")).setValue("k", "v", { secret: "s" })).rejects.toThrow(/Data vault store with ID missing does not exist/);
  });
});
