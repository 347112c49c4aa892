import { describe, expect, it } from "vitest";
import { ledgerProject } from "./support/payments-ledger-fixture.js";
import { SDK_VERSIONS, stackSdk } from "./support/stack-sdk.js";
import { server, useServerForFile } from "./support/users-fixture.js";

// The published SDKs (@stackframe/js 2.8.41 and 2.8.108), unchanged: their item calls on user, team and
// custom customers against Latchkey's ledger (issue 32).
useServerForFile();

describe.each(SDK_VERSIONS)("items through the %s SDK", (version) => {
  it("reads, increases, decreases and tries to decrease items of users, teams and custom customers", async () => {
    const project = await ledgerProject();
    const sdk = stackSdk(server, project, version);
    const app = sdk.server();
    const user = await app.createUser({ primaryEmail: `sdk-${crypto.randomUUID()}@example.com`, password: "correct horse battery", primaryEmailAuthEnabled: true });
    const team = await app.createTeam({ displayName: "Acme" });

    const credits = await user.getItem("credits");
    expect([credits.displayName, credits.quantity, credits.nonNegativeQuantity]).toEqual(["Credits", 5, 5]);
    await credits.increaseQuantity(10);
    expect((await user.getItem("credits")).quantity).toBe(15);
    expect(await credits.tryDecreaseQuantity(16)).toBe(false);
    expect(await credits.tryDecreaseQuantity(15)).toBe(true);
    // decreaseQuantity may go below zero (the SDK sends allow_negative=true).
    await credits.decreaseQuantity(4);
    const overdrawn = await app.getItem({ userId: user.id, itemId: "credits" });
    expect([overdrawn.quantity, overdrawn.nonNegativeQuantity]).toEqual([-4, 0]);

    // Typed as a client item in 2.8.41's declarations; a server team's item is a server item at run time.
    const seats = (await team.getItem("seats")) as unknown as { increaseQuantity(delta: number): Promise<void> };
    await seats.increaseQuantity(3);
    expect((await app.getItem({ teamId: team.id, itemId: "seats" })).quantity).toBe(3);

    const tokens = await app.getItem({ customCustomerId: "org:acme", itemId: "tokens" });
    expect(tokens.quantity).toBe(0);
    await tokens.increaseQuantity(2);
    expect(await tokens.tryDecreaseQuantity(3)).toBe(false);
    expect(await tokens.tryDecreaseQuantity(2)).toBe(true);
    expect((await app.getItem({ customCustomerId: "org:acme", itemId: "tokens" })).quantity).toBe(0);

    // The reference's errors arrive as the SDK's own known errors.
    const missing = await app.getItem({ userId: user.id, itemId: "nope" }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ errorCode: "ITEM_NOT_FOUND", statusCode: 404 });
    const mismatch = await app.getItem({ teamId: team.id, itemId: "credits" }).catch((e: unknown) => e);
    expect(mismatch).toMatchObject({ errorCode: "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", statusCode: 400 });

    // A signed-in client reads its own items.
    const client = sdk.client();
    const signedIn = await client.signInWithCredential({ email: user.primaryEmail!, password: "correct horse battery", noRedirect: true });
    expect(signedIn.status, JSON.stringify(signedIn)).toBe("ok");
    const own = await (await client.getUser({ or: "throw" })).getItem("credits");
    expect(own.quantity).toBe(-4);
  });
});
