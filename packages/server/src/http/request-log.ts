import type { Logger } from "pino";

/**
 * A request's logger (its lines carry the request id), made on first use: pino's `child()` serializes its bindings
 * at once, which every request paid though most log nothing below the info level's one line per request.
 */
export function lazyRequestLog(log: Logger, requestId: string): Logger {
  let child: Logger | undefined;
  const made = () => (child ??= log.child({ requestId }));
  // An empty target: the proxy answers for the child, and a target with fixed properties of its own would forbid that.
  return new Proxy({} as Logger, {
    get(_, property) {
      const value = Reflect.get(made(), property);
      return typeof value === "function" ? value.bind(made()) : value;
    },
    set(_, property, value) {
      return Reflect.set(made(), property, value);
    },
  });
}
