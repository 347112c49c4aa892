import type { ColumnType, Generated } from "kysely";

/** Table types of the payment tables (migrations/0039_payments.sql); part of `Database` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, never>;
/** jsonb written as JSON text, read back parsed. */
type Json = ColumnType<unknown, string, string>;
export type PaymentCustomerType = "user" | "team" | "custom";
export type PaymentCreationSource = "PURCHASE_PAGE" | "TEST_MODE";

export interface PaymentStripeAccountsTable {
  project_id: string;
  stripe_account_id: string;
  created_at: CreatedAt;
}

export interface PaymentPurchaseCodesTable {
  id: Generated<string>;
  project_id: string;
  code_hash: Uint8Array;
  customer_type: PaymentCustomerType;
  customer_id: string;
  offer_id: string | null;
  offer: Json;
  stripe_customer_id: string | null;
  stripe_account_id: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface PaymentSubscriptionsTable {
  id: Generated<string>;
  project_id: string;
  customer_type: PaymentCustomerType;
  customer_id: string;
  offer_id: string | null;
  offer: Json;
  price_id: string | null;
  quantity: number;
  stripe_subscription_id: string | null;
  status: string;
  current_period_start: Date;
  current_period_end: Date | null;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  creation_source: PaymentCreationSource;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface PaymentOneTimePurchasesTable {
  id: Generated<string>;
  project_id: string;
  customer_type: PaymentCustomerType;
  customer_id: string;
  offer_id: string | null;
  offer: Json;
  price_id: string | null;
  quantity: number;
  stripe_payment_intent_id: string | null;
  creation_source: PaymentCreationSource;
  created_at: CreatedAt;
}

export interface PaymentItemQuantityChangesTable {
  id: Generated<string>;
  project_id: string;
  customer_type: PaymentCustomerType;
  customer_id: string;
  item_id: string;
  // bigint: PostgreSQL drivers hand it back as a string; read it with Number().
  quantity: ColumnType<string | number, number, number>;
  description: string | null;
  expires_at: Date | null;
  created_at: CreatedAt;
}

/** migrations/0042_payment_stripe_customers.sql: a Latchkey customer's Stripe customer on a connected account. */
export interface PaymentStripeCustomersTable {
  project_id: string;
  stripe_account_id: string;
  customer_type: PaymentCustomerType;
  customer_id: string;
  stripe_customer_id: string;
  created_at: CreatedAt;
}

export interface PaymentTables {
  payment_stripe_accounts: PaymentStripeAccountsTable;
  payment_purchase_codes: PaymentPurchaseCodesTable;
  payment_subscriptions: PaymentSubscriptionsTable;
  payment_one_time_purchases: PaymentOneTimePurchasesTable;
  payment_item_quantity_changes: PaymentItemQuantityChangesTable;
  payment_stripe_customers: PaymentStripeCustomersTable;
}
