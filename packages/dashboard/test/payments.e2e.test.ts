import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessibleAndNarrow, keyAdmin, openSection, ownerAdmin, ownerWithProject, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The project's Payments page (issue 32) against the real server, which has no Stripe key (test mode): the
 * catalog edited through the config override with its checks, credits granted and taken for a user, a
 * test-mode purchase, and the transactions with filters and paging. What the page claims is checked through
 * the API.
 */
const harness = useDashboardHarness();

/** A plans group, a credits item for users and a "pro" plan that includes 100 credits, set through the API. */
const CATALOG = {
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    isAddOnTo: false,
    serverOnly: false,
    stackable: false,
    prices: { monthly: { USD: "9.99", interval: [1, "month"], serverOnly: false } },
    includedItems: { credits: { quantity: 100, repeat: "never", expires: "when-purchase-expires" } },
  },
};

async function openTab(page: Page, tab: string) {
  await openSection(page, "Payments");
  await page.getByRole("tab", { name: tab }).click();
  await page.getByRole("tab", { name: tab, selected: true }).waitFor();
}

/** A project with the catalog above and a user of it; the owner's page on the Payments page's `tab`. */
async function projectWithCatalog(tab: string) {
  const { page, projectId } = await ownerWithProject(harness);
  const admin = await keyAdmin(harness.server, projectId, "payments e2e");
  await admin.updateConfigOverride(CATALOG);
  const user = await admin.createUser({ primaryEmail: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, displayName: "Buyer" });
  await openTab(page, tab);
  return { page, projectId, admin, user };
}

/** Opens a customer on the Customers tab. */
async function openCustomer(page: Page, type: string, id: string) {
  await page.getByLabel("Customer type").selectOption({ label: type });
  await page.getByLabel("Customer id").fill(id);
  await page.getByRole("button", { name: "Open customer" }).click();
}

const balanceOf = (page: Page, itemName: string) => page.getByRole("table", { name: /^Balances of / }).getByRole("row").filter({ hasText: itemName }).getByRole("cell").nth(1);

describe("the Payments page", () => {
  it("says the project is in test mode and how to go live when the server has no Stripe key", async () => {
    const { page } = await ownerWithProject(harness);
    await openSection(page, "Payments");
    await page.getByText("Test mode.", { exact: true }).waitFor();
    await page.getByText("LATCHKEY_STRIPE_SECRET_KEY", { exact: true }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Connect Stripe" }).count()).toBe(0);
    await expectAccessibleAndNarrow(page);
  });

  it("adds an item, a group and an offer with a price, saying what is wrong before anything is sent", async () => {
    const { page, email, projectId } = await ownerWithProject(harness);
    const admin = await ownerAdmin(harness.server, email, projectId);
    await openTab(page, "Items & offers");

    // Items: a bad id is refused in the form; a good one is saved in the config.
    const addItem = page.getByRole("form", { name: "Add an item" });
    await addItem.getByLabel("Item id").fill("9 credits");
    await addItem.getByRole("button", { name: "Add item" }).click();
    await addItem.getByText("An id starts with a letter or _ and has only letters, digits, _ and -.").waitFor();
    await addItem.getByText("Enter the name customers see, e.g. Credits.").waitFor();
    await addItem.getByLabel("Item id").fill("c".repeat(64));
    await addItem.getByRole("button", { name: "Add item" }).click();
    await addItem.getByText("An id has at most 63 characters (this one has 64).").waitFor();
    await addItem.getByLabel("Item id").fill("credits");
    await addItem.getByLabel("Display name").fill("Credits");
    await addItem.getByRole("button", { name: "Add item" }).click();
    await page.getByText("Saved the item credits.").waitFor();
    await page.getByRole("table", { name: "Items" }).getByRole("cell", { name: "Credits", exact: true }).waitFor();

    const addGroup = page.getByRole("form", { name: "Add a group" });
    await addGroup.getByLabel("Group id").fill("plans");
    await addGroup.getByLabel("Display name").fill("Plans");
    await addGroup.getByRole("button", { name: "Add group" }).click();
    await page.getByText("Saved the group plans.").waitFor();

    // An offer with a monthly price: money is checked as text (no leading zeros, the currency's decimals).
    await page.getByRole("button", { name: "Add an offer" }).click();
    const form = page.getByRole("form", { name: "Add an offer" });
    await form.getByLabel("Offer id").fill("pro");
    await form.getByLabel("Display name").fill("Pro");
    await form.getByLabel("Group", { exact: true }).selectOption({ label: "Plans" });
    const price = form.getByRole("group", { name: "Price monthly" });
    await price.getByLabel("USD", { exact: true }).fill("09.99");
    await price.getByLabel("EUR", { exact: true }).fill("8.999");
    await price.getByLabel("JPY", { exact: true }).fill("1200.5");
    await price.getByRole("group", { name: "Billing interval" }).getByLabel("Unit").selectOption("month");
    await form.getByRole("button", { name: "Include an item" }).click();
    const included = form.getByRole("group", { name: /^Included item/ });
    await included.getByLabel("Item", { exact: true }).selectOption("credits");
    await included.getByLabel("Quantity", { exact: true }).fill("1.5");
    await form.getByRole("button", { name: "Add offer" }).click();
    await price.getByText("Leave out leading zeros (e.g. 9.99, not 09.99).").waitFor();
    await price.getByText("EUR has 2 decimals at most.").waitFor();
    await price.getByText("JPY has no decimals: enter a whole amount.").waitFor();
    await included.getByText("Enter a whole number, e.g. 10.").waitFor();
    await form.getByRole("alert").getByText("Check the fields marked above.").waitFor();
    // The first field with a problem has the focus.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("09.99");
    expect(((await admin.getConfig()).payments as { offers: object }).offers).toEqual({});

    await price.getByLabel("USD", { exact: true }).fill("9.99");
    await price.getByLabel("EUR", { exact: true }).fill("");
    await price.getByLabel("JPY", { exact: true }).fill("1200");
    await included.getByLabel("Quantity", { exact: true }).fill("100");
    await form.getByRole("button", { name: "Add offer" }).click();
    await page.getByText("Saved the offer pro.").waitFor();
    const offers = page.getByRole("list", { name: "Offers" });
    await offers.getByText("USD 9.99 / JPY 1200 every 1 month").waitFor();
    await offers.getByText("Includes 100 × Credits").waitFor();
    const payments = (await admin.getConfig()).payments as { offers: Record<string, unknown> };
    expect(payments.offers.pro).toEqual({
      displayName: "Pro",
      customerType: "user",
      groupId: "plans",
      isAddOnTo: false,
      serverOnly: false,
      stackable: false,
      prices: { monthly: { USD: "9.99", JPY: "1200", interval: [1, "month"], serverOnly: false } },
      includedItems: { credits: { quantity: 100, repeat: "never", expires: "when-purchase-expires" } },
    });

    // Editing writes the offer whole: a removed included item is gone from the config.
    await offers.getByRole("button", { name: "Edit the offer pro" }).click();
    const edit = page.getByRole("form", { name: "Edit the offer pro" });
    await edit.getByRole("button", { name: "Remove included item credits" }).click();
    await edit.getByRole("button", { name: "Save offer" }).click();
    await page.getByText("Saved the offer pro.").waitFor();
    await expect.poll(async () => ((await admin.getConfig()).payments as { offers: Record<string, { includedItems: object }> }).offers.pro?.includedItems).toEqual({});

    // A group an offer is in cannot be removed; it can once no offer is in it.
    await page.getByRole("button", { name: "Remove the group plans" }).click();
    await page.getByRole("alert").getByText("The group plans is used by Pro: change that offer first.").waitFor();
    await offers.getByRole("button", { name: "Remove the offer pro" }).click();
    await page.getByRole("dialog", { name: "Remove this offer?" }).getByRole("button", { name: "Remove offer" }).click();
    await page.getByText("No offers yet.").waitFor();
    await page.getByRole("button", { name: "Remove the group plans" }).click();
    await page.getByRole("dialog", { name: "Remove this group?" }).getByRole("button", { name: "Remove group" }).click();
    await page.getByText("No groups yet.").waitFor();
    await expectAccessibleAndNarrow(page);
  });

  it("grants credits to a user and refuses taking more than they hold in the server's words", async () => {
    const { page, admin, user } = await projectWithCatalog("Customers");
    await openCustomer(page, "Users", user.id);
    await expect.poll(() => balanceOf(page, "Credits").textContent()).toBe("0");

    const form = page.getByRole("form", { name: "Grant or take items" });
    await form.getByLabel("Quantity", { exact: true }).fill("0");
    await form.getByRole("button", { name: "Grant" }).click();
    await form.getByText("Enter a number other than 0.").waitFor();
    await form.getByLabel("Quantity", { exact: true }).fill("250");
    await form.getByLabel("Description").fill("Welcome credits");
    await form.getByRole("button", { name: "Grant" }).click();
    await form.getByText("Granted 250 × Credits.").waitFor();
    await expect.poll(() => balanceOf(page, "Credits").textContent()).toBe("250");

    await form.getByLabel("Quantity", { exact: true }).fill("1000");
    await form.getByRole("button", { name: "Take" }).click();
    await form
      .getByRole("alert")
      .getByText(`Could not change the quantity: The item with ID "credits" has an insufficient quantity for the customer with ID "${user.id}".`, { exact: false })
      .waitFor();
    await form.getByLabel("Quantity", { exact: true }).fill("50");
    await form.getByRole("button", { name: "Take" }).click();
    await form.getByText("Took 50 × Credits.").waitFor();
    await expect.poll(() => balanceOf(page, "Credits").textContent()).toBe("200");
    expect((await admin.getItem({ itemId: "credits", userId: user.id })).quantity).toBe(200);

    // A customer that does not exist: the server's refusal where the balances would be.
    await openCustomer(page, "Users", crypto.randomUUID());
    await page.getByRole("alert").getByText(/Could not load the balances: .*not found/i).waitFor();

    await page.getByRole("tab", { name: "Transactions" }).click();
    const table = page.getByRole("table", { name: "Transactions, page 1" });
    await table.getByRole("row").filter({ hasText: "Welcome credits" }).getByRole("cell", { name: "+250", exact: true }).waitFor();
    await table.getByRole("cell", { name: "-50", exact: true }).waitFor();
    await expectAccessibleAndNarrow(page);
  });

  it("makes a test-mode purchase for a user and pages through the transactions", async () => {
    const { page, projectId, admin, user } = await projectWithCatalog("Customers");
    // The user's page links to their items and purchases: the Customers tab with them open.
    await page.goto(`${harness.server.url}/dashboard/projects/${projectId}/users/${user.id}`);
    await page.getByRole("link", { name: "Items and purchases" }).click();
    await page.getByRole("heading", { name: `Items of user ${user.id}` }).waitFor();
    expect(await page.getByLabel("Customer id").inputValue()).toBe(user.id);
    const purchase = page.getByRole("form", { name: "Test-mode purchase" });
    await purchase.getByLabel("Offer", { exact: true }).selectOption("pro");
    await purchase.getByLabel("Price", { exact: true }).selectOption("monthly");
    await purchase.getByRole("button", { name: "Complete test purchase" }).click();
    await purchase.getByText("Test purchase of Pro completed.").waitFor();
    // Pro includes 100 credits: the balance shown follows.
    await expect.poll(() => balanceOf(page, "Credits").textContent()).toBe("100");

    // Eleven quantity changes after it: with ten a page, the purchase is the first row of page 2.
    const credits = await admin.getItem({ itemId: "credits", userId: user.id });
    for (let index = 1; index <= 11; index++) await credits.increaseQuantity(1, { description: `Grant ${index}` });

    await page.getByRole("tab", { name: "Transactions" }).click();
    await page.getByLabel("Per page").selectOption("10");
    const first = page.getByRole("table", { name: "Transactions, page 1" });
    await first.getByRole("row").filter({ hasText: "Grant 11" }).waitFor();
    await expect.poll(() => first.getByRole("row").count()).toBe(11);
    await page.getByRole("button", { name: "Next page" }).click();
    const second = page.getByRole("table", { name: "Transactions, page 2" });
    await second.getByRole("row").filter({ hasText: "Grant 1" }).waitFor();
    const bought = second.getByRole("row").filter({ hasText: "Pro" });
    await bought.getByText("Test mode").waitFor();
    await bought.getByText("USD 9.99 every 1 month").waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await page.getByRole("table", { name: "Transactions, page 1" }).waitFor();

    // Filters start again at page 1 and ask the server for that kind only.
    await page.getByLabel("Kind").selectOption({ label: "Subscription" });
    const subscriptions = page.getByRole("table", { name: "Transactions, page 1" });
    await expect.poll(() => subscriptions.getByRole("row").count()).toBe(2);
    await subscriptions.getByRole("row").filter({ hasText: "Pro" }).waitFor();
    await page.getByLabel("Customers").selectOption({ label: "Teams" });
    await page.getByText("No transactions match these filters.").waitFor();
    const listed = await admin.listTransactions({ type: "subscription" });
    expect(listed.transactions).toMatchObject([{ customerId: user.id, testMode: true, offerDisplayName: "Pro" }]);
    await expectAccessibleAndNarrow(page);
  });
});
