// The "@stackframe/emails" module (also "@latchkey/emails") as templates import it: <Subject> and
// <NotificationCategory> render nothing and hand their value to the render in progress. The types Props and
// ThemeProps only exist at compile time (esbuild drops type-only imports).
let collecting = null;

export function startCollecting() {
  collecting = { subject: null, notificationCategory: null };
  return collecting;
}

export function Subject({ value }) {
  if (collecting) collecting.subject = value == null ? null : String(value);
  return null;
}

export function NotificationCategory({ value }) {
  if (collecting) collecting.notificationCategory = value == null ? null : String(value);
  return null;
}
