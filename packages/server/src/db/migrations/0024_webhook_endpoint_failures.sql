-- Issue 18: as in Svix, an endpoint whose deliveries have all failed for 5 days is disabled and its project's
-- admins are mailed once. This is when the current run of failures began; a success clears it.
alter table webhook_endpoints add column failing_since timestamptz;
