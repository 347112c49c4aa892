-- The write path of a change with webhooks writes its messages only (issue 18: ≤ 10 % on sign-up). Making a
-- message's deliveries, one per enabled endpoint that takes its type, is the delivery workers' job: they pick
-- the messages still to fan out, and insert those deliveries already claimed by themselves.
alter table webhook_messages add column fan_out_pending boolean not null default false;
create index webhook_messages_fan_out on webhook_messages (created_at) where fan_out_pending;

-- New deliveries wake the workers, except those a worker inserts already claimed (it is sending them).
create or replace function latchkey_notify_webhook_due() returns trigger language plpgsql as $$
begin
  if exists (select 1 from inserted where claim_token is null) then
    perform pg_notify('latchkey_changes', 'webhook:due');
  end if;
  return null;
end
$$;
drop trigger webhook_deliveries_due on webhook_deliveries;
create trigger webhook_deliveries_due after insert on webhook_deliveries
  referencing new table as inserted
  for each statement execute function latchkey_notify_webhook_due();
