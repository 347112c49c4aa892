-- A publishable client key is public: every browser that loads the app has it. So it is also kept as it is, to
-- be shown again (the dashboard's Get started page, issue 31), while secret server and admin keys stay hashes
-- only. Keys made before this migration are known only by their hash: null here.
alter table api_key_sets add column publishable_client_key text;
