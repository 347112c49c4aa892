-- Webhooks (issue 18): the project's endpoints, the outbox of events, and each event's delivery to each endpoint.

-- An endpoint an event goes to, managed through the Svix-compatible API (routes/webhooks-svix.ts). Ids look like
-- Svix's (`ep_…`). The signing secret (`whsec_…`) must be readable back ("secret read"), so it is sealed with a
-- key derived from the server secret (crypto/sealed-text.ts), bound to the endpoint id.
create table webhook_endpoints (
  id text primary key check (id like 'ep\_%'),
  project_id text not null references projects(id) on delete cascade,
  url text not null check (char_length(url) <= 2048),
  description text not null default '' check (char_length(description) <= 1024),
  disabled boolean not null default false,
  -- The event types it receives; null receives every type.
  filter_types text[],
  -- The caller's own unique name for it (Svix's `uid`), usable in place of the id.
  uid text check (char_length(uid) <= 256),
  metadata jsonb not null default '{}',
  sealed_secret bytea not null,
  sealing_key_id text not null,
  -- After a rotation the previous secret still signs (a second signature) until it expires, so receivers can
  -- switch over without dropping deliveries, as with Svix.
  previous_sealed_secret bytea,
  previous_sealing_key_id text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_project on webhook_endpoints (project_id, created_at, id);
create unique index webhook_endpoints_uid on webhook_endpoints (project_id, uid) where uid is not null;

-- The outbox: one row per event, written in the transaction of the change it describes, so a rolled-back change
-- leaves none and a committed one cannot be lost. `payload` is the body sent, `{ "type": …, "data": … }`.
create table webhook_messages (
  id text primary key check (id like 'msg\_%'),
  project_id text not null references projects(id) on delete cascade,
  event_type text not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index webhook_messages_project on webhook_messages (project_id, created_at desc);

-- One message to one endpoint: pending until a 2xx answer (succeeded) or the last retry (failed). A worker
-- claims a due row by moving `next_attempt_at` past its request timeout and setting `claim_token`, so a
-- worker that dies mid-delivery leaves the row to be claimed again once that lease runs out.
create table webhook_deliveries (
  message_id text not null references webhook_messages(id) on delete cascade,
  endpoint_id text not null references webhook_endpoints(id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  claim_token uuid,
  last_attempt_at timestamptz,
  last_response_status integer,
  last_response_body text check (char_length(last_response_body) <= 1024),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (message_id, endpoint_id),
  check ((status = 'pending') = (next_attempt_at is not null))
);
-- The workers' claim query reads due pending rows in due order.
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc);

-- Every attempt, for the delivery log (status, a short excerpt of the answer, how long it took).
create table webhook_attempts (
  id uuid primary key default gen_random_uuid(),
  message_id text not null,
  endpoint_id text not null,
  attempted_at timestamptz not null default now(),
  response_status integer,
  response_body text check (char_length(response_body) <= 1024),
  duration_ms integer not null,
  foreign key (message_id, endpoint_id) references webhook_deliveries(message_id, endpoint_id) on delete cascade
);
create index webhook_attempts_delivery on webhook_attempts (message_id, endpoint_id, attempted_at);

-- New deliveries wake the workers of every process at once (through the change feed, db/change-feed.ts),
-- instead of waiting for their next poll; one notification per statement, sent on commit.
create function latchkey_notify_webhook_due() returns trigger language plpgsql as $$
begin
  perform pg_notify('latchkey_changes', 'webhook:due');
  return null;
end
$$;
create trigger webhook_deliveries_due after insert on webhook_deliveries
  for each statement execute function latchkey_notify_webhook_due();
