-- Webhook payloads in the protocol version an endpoint asks for (issue 29, services/webhook-payload-versions.ts):
-- `payload` is the 2.8.41 shape, as the reference sends it; this column the 2.8.108 one, for endpoints whose
-- metadata asks for it, and only where the two differ (user events). Null: the same as `payload`.
alter table webhook_messages add column payload_2_8_108 jsonb;
