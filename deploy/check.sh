#!/usr/bin/env bash
# Checks the example deployment files with the tools that will read them: `caddy validate` (Caddyfile),
# `nginx -t` (nginx/latchkey.conf), `systemd-analyze verify` (latchkey@.service). One line per file:
#   ok <file>: <tool>        the tool accepted it
#   skipped <file>: <why>    the tool is not installed here (Debian: apt-get install caddy nginx-light systemd)
#   FAILED <file>: <tool>    followed by the tool's output; the script then exits 1
# Nothing outside a temporary folder is written; the files are checked as they are, except the paths that only
# exist on a real host (the TLS certificate, /opt/latchkey), which point into the temporary folder.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

report() { # status file detail [output]
  echo "$1 $2: $3"
  if [ "$1" = FAILED ]; then
    failed=1
    printf '%s\n' "$4" | sed 's/^/    /'
  fi
}

# Caddy: `validate` loads the config and provisions it without listening or asking for certificates. Its state
# (and any autosave) goes to the temporary folder, not the user's home.
if command -v caddy >/dev/null; then
  if output=$(HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" caddy validate --config "$here/Caddyfile" --adapter caddyfile 2>&1); then
    report ok Caddyfile "caddy validate"
  else
    report FAILED Caddyfile "caddy validate" "$output"
  fi
else
  report skipped Caddyfile "caddy is not installed"
fi

# nginx: the site file inside a minimal main config (as /etc/nginx/nginx.conf includes conf.d/*.conf), with a
# self-signed certificate where the example names certbot's; pid, logs and temp files in the temporary folder.
if command -v nginx >/dev/null && command -v openssl >/dev/null; then
  openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=auth.example.com -days 1 \
    -keyout "$work/privkey.pem" -out "$work/fullchain.pem" >/dev/null 2>&1
  sed "s|/etc/letsencrypt/live/auth.example.com|$work|g" "$here/nginx/latchkey.conf" > "$work/latchkey.conf"
  cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log stderr;
events {}
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  include $work/latchkey.conf;
}
CONF
  if output=$(nginx -t -q -c "$work/nginx.conf" -p "$work" 2>&1) && [ -z "$output" ]; then
    report ok nginx/latchkey.conf "nginx -t"
  else
    report FAILED nginx/latchkey.conf "nginx -t" "$output"
  fi
else
  report skipped nginx/latchkey.conf "nginx (or openssl) is not installed"
fi

# systemd: `verify` exits 0 on unknown keys and bad values (it only prints them), so any output is a failure.
# The unit's program must exist: /opt/latchkey points at an empty executable in the temporary folder.
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$work/opt/node_modules/.bin"
  printf '#!/bin/sh\n' > "$work/opt/node_modules/.bin/latchkey-server"
  chmod +x "$work/opt/node_modules/.bin/latchkey-server"
  sed "s|/opt/latchkey|$work/opt|g" "$here/latchkey@.service" > "$work/latchkey@8102.service"
  if output=$(systemd-analyze verify --man=no "$work/latchkey@8102.service" 2>&1) && [ -z "$output" ]; then
    report ok latchkey@.service "systemd-analyze verify"
  else
    report FAILED latchkey@.service "systemd-analyze verify" "$output"
  fi
else
  report skipped latchkey@.service "systemd-analyze is not installed"
fi

exit "$failed"
