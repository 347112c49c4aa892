import { KnownErrors } from "@latchkey/protocol/errors";
import type { Selectable } from "kysely";
import type { Db } from "../db/connect.js";
import type { PaymentCustomerType, PaymentPurchaseCodesTable } from "../db/schema-payments.js";
import { hashSecret, secureRandomString } from "../crypto/secrets.js";
import type { OfferConfig } from "../config/project-config.js";

/**
 * The single-use codes behind purchase URLs (issue 32). `full_code` = `<project id>_<code>`, the code being
 * 45 characters of Crockford base32 like every other one-time code here (services/verification-codes.ts);
 * only its hash is stored (payment_purchase_codes). A code is valid for 24 hours and is used up by one
 * conditional UPDATE, so however many purchases race for it, exactly one gets it.
 *
 * Unknown, used and expired codes answer the protocol's verification-code errors, as the reference's
 * purchase codes (a verification-code handler there) do.
 */

export const PURCHASE_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type PurchaseCodeRow = Selectable<PaymentPurchaseCodesTable>;

export interface NewPurchaseCode {
  projectId: string;
  customerType: PaymentCustomerType;
  customerId: string;
  offerId: string | null;
  offer: OfferConfig;
  stripeCustomerId: string | null;
  stripeAccountId: string | null;
}

export async function createPurchaseCode(db: Db, input: NewPurchaseCode): Promise<{ fullCode: string; expiresAt: Date }> {
  const code = secureRandomString(45);
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + PURCHASE_CODE_LIFETIME_MS);
  await db
    .insertInto("payment_purchase_codes")
    .values({
      project_id: input.projectId,
      code_hash: hashSecret(code),
      customer_type: input.customerType,
      customer_id: input.customerId,
      offer_id: input.offerId,
      offer: JSON.stringify(input.offer),
      stripe_customer_id: input.stripeCustomerId,
      stripe_account_id: input.stripeAccountId,
      created_at: createdAt,
      expires_at: expiresAt,
    })
    .execute();
  return { fullCode: `${input.projectId}_${code}`, expiresAt };
}

/** Splits `<project id>_<code>`: project ids hold no `_` and codes none either, so the last one separates them. */
function parseFullCode(fullCode: string): { projectId: string; code: string } | undefined {
  const at = fullCode.lastIndexOf("_");
  if (at <= 0 || at === fullCode.length - 1) return undefined;
  return { projectId: fullCode.slice(0, at), code: fullCode.slice(at + 1) };
}

async function findRow(db: Db, fullCode: string): Promise<PurchaseCodeRow | undefined> {
  const parsed = parseFullCode(fullCode);
  if (!parsed) return undefined;
  return db
    .selectFrom("payment_purchase_codes")
    .selectAll()
    .where("code_hash", "=", hashSecret(parsed.code))
    .where("project_id", "=", parsed.projectId)
    .executeTakeFirst();
}

function refusalFor(row: PurchaseCodeRow | undefined, now: Date): Error | undefined {
  if (!row) return new KnownErrors.VerificationCodeNotFound();
  if (row.used_at) return new KnownErrors.VerificationCodeAlreadyUsed();
  if (row.expires_at.getTime() <= now.getTime()) return new KnownErrors.VerificationCodeExpired();
  return undefined;
}

/** The code's row while it can still be used; otherwise the protocol's error for why not. */
export async function findUsablePurchaseCode(db: Db, fullCode: string): Promise<PurchaseCodeRow> {
  const row = await findRow(db, fullCode);
  const refusal = refusalFor(row, new Date());
  if (refusal) throw refusal;
  return row!;
}

/**
 * Uses the code up: one UPDATE that succeeds only while it is unused and unexpired. Run it in the transaction
 * that records the purchase, so that a purchase that fails leaves the code usable.
 */
export async function usePurchaseCode(db: Db, row: PurchaseCodeRow): Promise<void> {
  const now = new Date();
  const used = await db
    .updateTable("payment_purchase_codes")
    .set({ used_at: now })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning("id")
    .executeTakeFirst();
  if (used) return;
  const current = await db.selectFrom("payment_purchase_codes").selectAll().where("id", "=", row.id).executeTakeFirst();
  throw refusalFor(current, now) ?? new KnownErrors.VerificationCodeAlreadyUsed();
}

/** Makes a used code usable again: the purchase it was used for could not be started (Stripe unreachable). */
export async function releasePurchaseCode(db: Db, row: PurchaseCodeRow): Promise<void> {
  await db.updateTable("payment_purchase_codes").set({ used_at: null }).where("id", "=", row.id).execute();
}
