import { describe, expect, it } from "vitest";
import { ledgerProject, quantityOf, updateQuantity } from "./support/payments-ledger-fixture.js";
import { server, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("parallel quantity changes", () => {
  it("50 parallel decreases of 3 on a balance of 100 never overdraw: exactly 33 succeed and 1 is left", async () => {
    const project = await ledgerProject();
    const customer = `hot-${crypto.randomUUID()}`;
    expect((await updateQuantity(project, "custom", customer, "tokens", { delta: 100 })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 50 }, () => updateQuantity(project, "custom", customer, "tokens", { delta: -3 }, false)));
    const statuses = results.map((r) => (r.status === 200 ? "ok" : r.body.code));
    expect(statuses.filter((s) => s === "ok")).toHaveLength(33);
    expect(statuses.filter((s) => s === "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")).toHaveLength(17);
    expect(await quantityOf(project, "custom", customer, "tokens")).toBe(1);
    const rows = await server.db.selectFrom("payment_item_quantity_changes").select("quantity")
      .where("project_id", "=", project.projectId).where("customer_id", "=", customer).execute();
    expect(rows).toHaveLength(34);
  });
});
