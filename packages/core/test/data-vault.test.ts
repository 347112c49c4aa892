import { StackServerApp } from "@stackframe/js";
import { describe, expect, it } from "vitest";
import { DataVaultDecryptionError } from "../src/apps/data-vault-crypto.js";
import { adminAppFor, createTestProject, serverAppFor, useLiveServer } from "./support/live-server.js";

const live = useLiveServer();

async function vaultProject() {
  const project = await createTestProject(live.server());
  await adminAppFor(live.server(), project).updateConfigOverride({ "dataVault.stores.tokens": { displayName: "Tokens" } });
  return project;
}

/** The reference's server app (@stackframe/js 2.8.41), unchanged, on the same project. */
function referenceApp(project: Awaited<ReturnType<typeof vaultProject>>) {
  return new StackServerApp({
    baseUrl: live.server().url,
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    secretServerKey: project.secretServerKey,
    tokenStore: "memory",
  });
}

describe("a server app's data vault store", () => {
  it("reads what @stackframe/js 2.8.41 wrote and writes what it reads: the same hashed keys and value format", async () => {
    const project = await vaultProject();
    const ours = await serverAppFor(live.server(), project).getDataVaultStore("tokens");
    const theirs = await referenceApp(project).getDataVaultStore("tokens");
    const secret = "the-app's-own-secret";

    await theirs.setValue("github:user-1", "written by the reference ✓", { secret });
    expect(await ours.getValue("github:user-1", { secret })).toBe("written by the reference ✓");

    await ours.setValue("github:user-2", "written by Latchkey ✓", { secret });
    expect(await theirs.getValue("github:user-2", { secret })).toBe("written by Latchkey ✓");

    // Both overwrite the one entry of a key.
    await ours.setValue("github:user-1", "replaced", { secret });
    expect(await theirs.getValue("github:user-1", { secret })).toBe("replaced");
  });

  it("reads a wrong secret or an unknown key as null, never as garbage, and needs a secret", async () => {
    const project = await vaultProject();
    const store = await serverAppFor(live.server(), project).getDataVaultStore("tokens");
    await store.setValue("k", "value", { secret: "right" });
    expect(await store.getValue("k", { secret: "wrong" })).toBeNull();
    expect(await store.getValue("other", { secret: "right" })).toBeNull();
    await expect(store.getValue("k", {} as { secret: string })).rejects.toThrow("secret must be a string, got undefined");
  });

  it("throws DATA_VAULT_STORE_DOES_NOT_EXIST for a store the config lacks, and a decryption error for a value that is not ours", async () => {
    const project = await vaultProject();
    const app = serverAppFor(live.server(), project);
    await expect((await app.getDataVaultStore("missing")).setValue("k", "v", { secret: "s" })).rejects.toMatchObject({ code: "DATA_VAULT_STORE_DOES_NOT_EXIST" });
    // A value stored under the right hashed key but not encrypted with the secret (another writer) fails loudly.
    const { hashVaultKey } = await import("../src/apps/data-vault-crypto.js");
    const response = await fetch(`${live.server().url}/api/v1/data-vault/stores/tokens/set`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": project.secretServerKey },
      body: JSON.stringify({ hashed_key: await hashVaultKey("s", "k"), encrypted_value: btoa("\x01\x00" + "x".repeat(60)) }),
    });
    expect(response.status).toBe(200);
    await expect((await app.getDataVaultStore("tokens")).getValue("k", { secret: "s" })).rejects.toBeInstanceOf(DataVaultDecryptionError);
  });
});
