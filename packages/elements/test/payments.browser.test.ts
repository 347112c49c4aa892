import { expect } from "@esm-bundle/chai";
import { createServerApp, paymentsOf } from "@latchkey/core";
import { setLocale } from "../src/base/i18n.js";
import { axe } from "./support/axe.js";
import { createProject, type BrowserTestProject } from "./support/harness.js";
import { unmountAll, until } from "./support/mount.js";
import { signedIn, type Person } from "./support/teams.js";

/** Plans (free by default, pro monthly), an add-on of pro, credits that pro includes, seats for teams. */
const PAYMENTS = {
  "teams.allowClientTeamCreation": true,
  "payments.groups.plans": { displayName: "Plans" },
  "payments.items.credits": { displayName: "Credits", customerType: "user" },
  "payments.items.seats": { displayName: "Seats", customerType: "team" },
  "payments.offers.free": { displayName: "Free", customerType: "user", groupId: "plans", prices: "include-by-default", includedItems: { credits: { quantity: 10 } } },
  "payments.offers.pro": {
    displayName: "Pro",
    customerType: "user",
    groupId: "plans",
    prices: { monthly: { USD: "9.99", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 1000, repeat: "never", expires: "when-purchase-expires" } },
  },
  "payments.offers.boost": { displayName: "Boost", customerType: "user", isAddOnTo: { pro: true }, prices: { once: { USD: "3" } } },
};

const text = (element: Element | null) => (element?.textContent ?? "").replace(/\s+/g, " ").trim();

let project: BrowserTestProject;
async function shopper(markup: string): Promise<Person> {
  project ??= await createProject({ configOverride: PAYMENTS });
  return signedIn(project, markup, "Shopper");
}

const plans = (person: Person) => [...person.host.querySelectorAll("[part=plan]")];
const planNamed = (person: Person, name: string) => plans(person).find((plan) => text(plan.querySelector("h3")) === name);

/** Completes a purchase link's purchase as the hosted page's test mode does (the code is the credential). */
async function completeTestPurchase(url: string, priceId: string): Promise<void> {
  const fullCode = decodeURIComponent(new URL(url).pathname.split("/").pop()!);
  const response = await fetch(`${project.baseUrl}/api/v1/payments/purchases/complete-test-mode-purchase`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ full_code: fullCode, price_id: priceId, quantity: 1 }),
  });
  expect(response.status, await response.clone().text()).to.equal(200);
}

/** Keeps the page where it is when a checkout button is pressed, and hands over the purchase link. */
function nextCheckout(person: Person): Promise<CustomEvent<{ offerId: string; url: string }>> {
  return new Promise((resolve) =>
    person.host.addEventListener(
      "auth-checkout-created",
      (event) => {
        event.preventDefault();
        resolve(event as CustomEvent<{ offerId: string; url: string }>);
      },
      { once: true },
    ),
  );
}

describe("<auth-pricing-table> and <auth-item-balance>", () => {
  afterEach(async () => {
    unmountAll();
    await setLocale("en");
  });

  it("has no accessibility violations", async () => {
    const person = await shopper('<auth-pricing-table group="plans"></auth-pricing-table><auth-item-balance item="credits"></auth-item-balance>');
    await until(() => planNamed(person, "Pro") && person.q("auth-item-balance [part=quantity]"));
    expect(await axe(person.host)).to.deep.equal([]);
  });

  it("shows the group's plans with prices and intervals, the free plan current, and the balance", async () => {
    const person = await shopper('<auth-pricing-table group="plans"></auth-pricing-table><auth-item-balance item="credits"></auth-item-balance>');
    await until(() => planNamed(person, "Pro") && person.q("auth-item-balance [part=quantity]"));
    expect(plans(person).map((plan) => text(plan.querySelector("h3")))).to.deep.equal(["Free", "Pro"]);
    const free = planNamed(person, "Free")!;
    expect(free.getAttribute("aria-current")).to.equal("true");
    expect(text(free)).to.contain("Current plan");
    expect(free.querySelector("button")).to.equal(null);
    const pro = planNamed(person, "Pro")!;
    expect(pro.getAttribute("aria-current")).to.equal("false");
    expect(text(pro)).to.contain("$9.99").and.contain("per month");
    expect(text(pro.querySelector("button"))).to.equal("Choose Pro");
    expect(text(person.q("auth-item-balance"))).to.equal("Credits 10");
    // The test server has no Stripe key: the table says, before the plans, that nothing is charged.
    const note = person.q("auth-pricing-table [part=test-mode]");
    expect(text(note)).to.equal("Test mode Purchases are not charged.");
    expect(note.compareDocumentPosition(person.q("auth-pricing-table .lk-plans")) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
  });

  it("opens checkout with a purchase link, and after the purchase the balance and current plan change without a reload", async () => {
    const person = await shopper('<auth-pricing-table group="plans"></auth-pricing-table><auth-item-balance item="credits"></auth-item-balance>');
    await until(() => planNamed(person, "Pro")?.querySelector("button"));
    const checkout = nextCheckout(person);
    planNamed(person, "Pro")!.querySelector("button")!.click();
    const { detail } = await checkout;
    expect(detail.offerId).to.equal("pro");
    const url = new URL(detail.url);
    expect(url.pathname).to.match(new RegExp(`^/purchase/${project.projectId}_`));
    // The purchase page's done link comes back here.
    expect(url.searchParams.get("return_url")).to.equal(location.href);

    await completeTestPurchase(detail.url, "monthly");
    // The person comes back to the tab: the widgets load again.
    window.dispatchEvent(new Event("focus"));
    await until(() => text(person.q("auth-item-balance")) === "Credits 1,000", 10_000, "the new balance");
    await until(() => planNamed(person, "Pro")?.getAttribute("aria-current") === "true", 10_000, "pro as the current plan");
    expect(planNamed(person, "Free")!.getAttribute("aria-current")).to.equal("false");
    expect(planNamed(person, "Pro")!.querySelector("button")).to.equal(null);
  });

  it("marks add-ons, offers them only with their base plan, and shows a team's balance with team-id", async () => {
    const person = await shopper('<auth-pricing-table></auth-pricing-table>');
    await until(() => planNamed(person, "Boost"));
    const boost = planNamed(person, "Boost")!;
    expect(text(boost)).to.contain("Add-on").and.contain("Available with Pro").and.contain("$3.00").and.contain("once");
    expect(boost.querySelector("button")).to.equal(null);

    const { id: teamId } = await person.app.createTeam({ displayName: "Crew" });
    const server = createServerApp({ projectId: project.projectId, secretServerKey: project.secretServerKey, baseUrl: project.baseUrl, tokenStore: "memory" });
    await (await server.getItem({ itemId: "seats", teamId })).increaseQuantity(3);
    person.host.insertAdjacentHTML("beforeend", `<auth-item-balance item="seats" team-id="${teamId}"></auth-item-balance>`);
    await until(() => text(person.q("auth-item-balance[team-id]")) === "Seats 3");

    // Moved elsewhere in the page, it keeps following its balance.
    const balance = person.q("auth-item-balance[team-id]");
    person.host.prepend(balance);
    await (await server.getItem({ itemId: "seats", teamId })).increaseQuantity(1);
    await paymentsOf(person.app).refreshPayments();
    await until(() => text(balance) === "Seats 4");
  });

  it("says why a balance cannot be shown in an alert", async () => {
    const person = await shopper('<auth-item-balance item="no-such-item"></auth-item-balance>');
    const alert = await until(() => person.host.querySelector("auth-item-balance [role=alert]"));
    expect(text(alert)).to.equal('Item with ID "no-such-item" not found.');
  });

  it("lays out right to left in Arabic and fits a narrow screen", async () => {
    await setLocale("ar");
    const person = await shopper('<div style="width:280px"><auth-pricing-table group="plans"></auth-pricing-table></div>');
    await until(() => planNamed(person, "Pro"));
    const table = person.q("auth-pricing-table");
    expect(table.getAttribute("dir")).to.equal("rtl");
    expect(text(planNamed(person, "Free") ?? null)).to.contain("الخطة الحالية");
    expect(text(person.q("auth-pricing-table [part=test-mode]"))).to.equal("وضع الاختبار لا تُحتسب رسوم على عمليات الشراء.");
    expect(table.scrollWidth).to.be.at.most(table.clientWidth);
  });
});
