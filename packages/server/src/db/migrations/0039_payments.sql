-- Payments (issue 32). Items, offers, prices and groups live in the project config (payments.*); these tables
-- hold what happened: Stripe accounts, purchase codes, subscriptions, one-time purchases and item quantity
-- changes. A customer is (customer_type, customer_id): a user id, a team id or any id the app chose ("custom"),
-- so no foreign key names it. An item's quantity is never stored; services compute it from these rows.

-- The project's Stripe connected account, made by POST /internal/payments/setup.
create table payment_stripe_accounts (
  project_id text primary key references projects(id) on delete cascade,
  stripe_account_id text not null unique,
  created_at timestamptz not null default now()
);

-- Purchase codes behind create-purchase-url's URL (`full_code` = `<project id>_<code>`; only the code's hash
-- is stored). `offer` is the offer as it was when the code was made (config offer or inline offer).
-- A purchase uses the code up with one conditional UPDATE (used_at is null and not expired).
create table payment_purchase_codes (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  code_hash bytea not null unique,
  customer_type text not null check (customer_type in ('user', 'team', 'custom')),
  customer_id text not null,
  offer_id text,
  offer jsonb not null,
  stripe_customer_id text,
  stripe_account_id text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index payment_purchase_codes_expiry on payment_purchase_codes (project_id, expires_at);

-- Subscriptions: mirrored from Stripe (stripe_subscription_id set) or made in test mode. A subscription to a
-- config offer (offer_id set) follows the offer as configured now; `offer` is the snapshot used for inline
-- offers and when the config offer has since been removed.
create table payment_subscriptions (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  customer_type text not null check (customer_type in ('user', 'team', 'custom')),
  customer_id text not null,
  offer_id text,
  offer jsonb not null,
  price_id text,
  quantity integer not null check (quantity > 0),
  stripe_subscription_id text,
  -- Stripe's subscription statuses: active, trialing, canceled, past_due, incomplete, incomplete_expired, unpaid, paused.
  status text not null,
  current_period_start timestamptz not null,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  creation_source text not null check (creation_source in ('PURCHASE_PAGE', 'TEST_MODE')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, stripe_subscription_id)
);
create index payment_subscriptions_customer on payment_subscriptions (project_id, customer_type, customer_id);
create index payment_subscriptions_listing on payment_subscriptions (project_id, created_at desc, id desc);

-- One-time purchases; one per Stripe payment intent however often its event is delivered.
create table payment_one_time_purchases (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  customer_type text not null check (customer_type in ('user', 'team', 'custom')),
  customer_id text not null,
  offer_id text,
  offer jsonb not null,
  price_id text,
  quantity integer not null check (quantity > 0),
  stripe_payment_intent_id text,
  creation_source text not null check (creation_source in ('PURCHASE_PAGE', 'TEST_MODE')),
  created_at timestamptz not null default now(),
  unique (project_id, stripe_payment_intent_id)
);
create index payment_one_time_purchases_customer on payment_one_time_purchases (project_id, customer_type, customer_id);
create index payment_one_time_purchases_listing on payment_one_time_purchases (project_id, created_at desc, id desc);

-- Grants and charges of an item (update-quantity); each may expire.
create table payment_item_quantity_changes (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  customer_type text not null check (customer_type in ('user', 'team', 'custom')),
  customer_id text not null,
  item_id text not null,
  quantity bigint not null,
  description text,
  expires_at timestamptz,
  created_at timestamptz not null default now()
);
create index payment_item_quantity_changes_customer on payment_item_quantity_changes (project_id, customer_type, customer_id, item_id);
create index payment_item_quantity_changes_listing on payment_item_quantity_changes (project_id, created_at desc, id desc);
