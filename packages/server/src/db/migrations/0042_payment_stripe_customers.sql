-- The Stripe customer standing for each Latchkey customer on a project's connected account (issue 32,
-- services/stripe/stripe-purchases.ts). Stripe's customer search is eventually consistent (a customer made a
-- moment ago may not be found yet), so the mapping is kept here; the Stripe customer's metadata says the same
-- (customerType, customerId), which is what the webhook reads back.
create table payment_stripe_customers (
  project_id text not null references projects(id) on delete cascade,
  stripe_account_id text not null,
  customer_type text not null check (customer_type in ('user', 'team', 'custom')),
  customer_id text not null,
  stripe_customer_id text not null,
  created_at timestamptz not null default now(),
  primary key (project_id, stripe_account_id, customer_type, customer_id)
);
