-- Which device a session is used from (issue 16 §3, the sessions list): the browser's User-Agent when the
-- session was made and at its last use, and the country the deployment's trusted edge proxy reported for its
-- last use (`cf-ipcountry`). The user agent is cut to 512 characters before it is stored: enough for any real
-- browser's, and a client cannot make rows of kilobytes.
alter table sessions
  add column created_user_agent text check (char_length(created_user_agent) <= 512),
  add column last_used_user_agent text check (char_length(last_used_user_agent) <= 512),
  add column last_used_country_code text check (last_used_country_code ~ '^[A-Z]{2}$');
