-- Issue 29 §3: confirming a command-line login stores the refresh token the browser sends, and the one poll that
-- claims the attempt hands exactly that token to the tool, as the reference does (the poll used to start a new
-- session for the confirming user, whose id was kept instead). The token is sealed with the server secret
-- (crypto/sealed-text.ts) and cleared once handed out; an attempt lives two hours by default.
alter table cli_auth_attempts
  add column refresh_token_sealed bytea,
  add column refresh_token_sealing_key_id text,
  drop column user_id;
