import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Hono, type Context } from "hono";
import { KnownError } from "@latchkey/protocol/errors";
import { isUrlTrustedForProject, projectHomeUrl } from "../config/hosted-pages.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppEnv } from "../http/context.js";
import { offerFromSnapshot } from "../services/payments-offers.js";
import { describePurchaseCodeRow } from "../services/payments-purchases.js";
import { findUsablePurchaseCode } from "../services/purchase-codes.js";
import { purchasablePrices } from "../services/purchase-offers.js";
import { findProject } from "../services/projects.js";
import { priceView, type PriceView } from "../purchase-page/format.js";
import { scriptJson } from "../http/page-html.js";
import { messageBody, offerPageBody, pageDocument } from "../purchase-page/page-html.js";
import { PURCHASE_PAGE_SCRIPT } from "../purchase-page/page-script.js";

/**
 * The hosted purchase page a purchase URL opens, and its return page (issue 32), served by this server as the
 * hosted handler pages are:
 * - `GET /purchase/<full_code>[?return_url=]`: the offer, its prices, quantity when stackable, what stands in
 *   the way, and the pay button (test mode, or Stripe's Payment Element);
 * - `GET /purchase/return?project_id=&return_url=`: the purchase is done, with a link back to the app
 *   (`return_url` when the project trusts it, else the project's home). Stripe adds `redirect_status`.
 * - `GET /purchase/assets/stripe-js.mjs`: @stripe/stripe-js's loader (it adds Stripe.js from js.stripe.com).
 */
export function purchasePageRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/purchase/assets/stripe-js.mjs", async () => {
    const loader = await stripeLoader();
    return new Response(loader, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" } });
  });
  app.get("/purchase/return", returnPage);
  app.get("/purchase/:fullCode", purchasePage);
  return app;
}

let loaderSource: Promise<string> | undefined;
function stripeLoader(): Promise<string> {
  // The ES module build of the loader: one file, no imports.
  loaderSource ??= readFile(join(dirname(createRequire(import.meta.url).resolve("@stripe/stripe-js/package.json")), "dist", "pure.mjs"), "utf8");
  return loaderSource;
}

async function purchasePage(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get("deps");
  const { db, env } = deps;
  const fullCode = c.req.param("fullCode") ?? "";
  const lang = pageLanguage(c.req.header("accept-language"));
  let row: Awaited<ReturnType<typeof findUsablePurchaseCode>>;
  try {
    row = await findUsablePurchaseCode(db, fullCode);
  } catch (error) {
    if (!(error instanceof KnownError)) throw error;
    const body = messageBody("This purchase link cannot be used", `${error.message} Ask for a new purchase link.`);
    return html(c, pageDocument({ title: "Purchase link", lang, body }), error.statusCode);
  }
  const described = await describePurchaseCodeRow(deps, row);
  const project = (await findProject(db, row.project_id))!;
  const config = renderProjectConfig(project.config_override as ConfigObject);
  const returnUrl = trustedReturnUrl(c, project.id, config);
  const returnPage = `${env.publicUrl}/purchase/return?${new URLSearchParams({ project_id: project.id, ...(returnUrl ? { return_url: returnUrl } : {}) })}`;

  const offer = offerFromSnapshot(row.offer);
  const prices = Object.entries(purchasablePrices(row.offer_id, offer)).flatMap(([id, price]) => priceView(id, price, lang, offer.freeTrial) ?? []);
  const testMode = described.test_mode;
  const cannotPay =
    !testMode && !env.stripePublishableKey ? "Payments cannot be taken on this page yet: the server has no Stripe publishable key (LATCHKEY_STRIPE_PUBLISHABLE_KEY)." : undefined;
  const body = offerPageBody({
    offerName: described.offer.display_name,
    prices,
    stackable: described.offer.stackable,
    testMode,
    alreadyBought: described.already_bought_non_stackable,
    conflicting: described.conflicting_group_offers.map((o) => o.display_name),
    cannotPay,
  });
  const data = {
    api: `${env.publicUrl}/api/v1`,
    fullCode,
    locale: lang,
    testMode,
    returnPage,
    prices: Object.fromEntries(prices.map((p: PriceView) => [p.id, p])),
    stripeLoader: `${env.publicUrl}/purchase/assets/stripe-js.mjs`,
    stripePublishableKey: env.stripePublishableKey ?? null,
    stripeAccountId: described.stripe_account_id,
  };
  const nonce = randomBytes(16).toString("base64");
  const head = `<script type="application/json" id="purchase-data">${scriptJson(data)}</script>
<script nonce="${nonce}" type="module">${PURCHASE_PAGE_SCRIPT}</script>`;
  const title = `${described.offer.display_name} · ${project.display_name}`;
  return html(c, pageDocument({ title, projectName: project.display_name, lang, body, head }), 200, nonce);
}

async function returnPage(c: Context<AppEnv>): Promise<Response> {
  const { db, env } = c.get("deps");
  const lang = pageLanguage(c.req.header("accept-language"));
  const project = await findProject(db, c.req.query("project_id") ?? "");
  if (!project) return html(c, pageDocument({ title: "Not found", lang, body: messageBody("Not found", "There is no project with this id.") }), 404);
  const config = renderProjectConfig(project.config_override as ConfigObject);
  const back = trustedReturnUrl(c, project.id, config) ?? projectHomeUrl(env, project.id, config);
  const link = { href: back, text: `Back to ${project.display_name}` };
  const failed = c.req.query("redirect_status") === "failed";
  const body = failed
    ? messageBody("The payment did not go through", "Nothing was charged. Go back and try again with another payment method.", link)
    : messageBody("Purchase complete", "Thank you! Your purchase is done and is now part of your account.", link);
  return html(c, pageDocument({ title: failed ? "Payment failed" : "Purchase complete", projectName: project.display_name, lang, body }), 200);
}

/** The `return_url` query parameter when the project trusts it (as every redirect is checked); else undefined. */
function trustedReturnUrl(c: Context<AppEnv>, projectId: string, config: ReturnType<typeof renderProjectConfig>): string | undefined {
  const url = c.req.query("return_url");
  return url !== undefined && isUrlTrustedForProject(c.get("deps").env, projectId, config, url) ? url : undefined;
}

/** The first language the browser asks for: the page's `lang` and how amounts are written. */
function pageLanguage(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(",")[0]?.split(";")[0]?.trim() ?? "";
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(first)) return "en";
  try {
    return Intl.getCanonicalLocales(first)[0] ?? "en";
  } catch {
    return "en";
  }
}

/**
 * Only this server's scripts (the page's own by nonce, the loader) and Stripe.js with its frames; no framing of
 * the page itself (clickjacking a pay button); no Referer (the URL holds the purchase code).
 */
function html(c: Context<AppEnv>, document: string, status: number, nonce?: string): Response {
  const api = new URL(c.get("deps").env.publicUrl).origin;
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${api}${nonce ? ` 'nonce-${nonce}'` : ""} https://js.stripe.com`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    `connect-src 'self' ${api} https://api.stripe.com`,
    "frame-src https://js.stripe.com https://hooks.stripe.com",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return new Response(document, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "cache-control": "no-store",
    },
  });
}
