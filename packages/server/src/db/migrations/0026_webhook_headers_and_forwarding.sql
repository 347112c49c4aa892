-- Issue 18: an endpoint's own headers, sent with each of its deliveries (Svix's endpoint headers: an
-- Authorization header the receiver checks, say). Names are kept in lower case; the signing headers cannot be set.
alter table webhook_endpoints add column headers jsonb not null default '{}';

-- Each process caches whether a project has an enabled endpoint (cache/webhook-listening.ts), so writes in
-- projects without webhooks skip the outbox lookup; this tells every process when that may have changed.
create trigger webhook_endpoints_changes after insert or delete or update of disabled, project_id on webhook_endpoints
  for each row execute function latchkey_notify_change('webhook_endpoints', 'project_id');

-- With LATCHKEY_SVIX_URL set, the outbox's messages are handed to that Svix server instead of delivered here
-- (services/webhook-svix-forwarder.ts): due while not yet accepted there, then forwarded_at. Null for messages the
-- built-in engine delivers.
alter table webhook_messages add column forward_due_at timestamptz;
alter table webhook_messages add column forward_attempts integer not null default 0;
alter table webhook_messages add column forwarded_at timestamptz;
create index webhook_messages_forward_due on webhook_messages (forward_due_at) where forward_due_at is not null;
