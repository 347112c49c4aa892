/** The cookies a cookie token store reads and writes: `document.cookie` in browsers, anything in tests. */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: { maxAgeSeconds: number; secure: boolean }): void;
  delete(name: string): void;
}

/**
 * The page's cookies through `document.cookie` (path `/`, SameSite=Lax). A read parses `document.cookie` only when it
 * differs from the last one parsed: a cookie token store reads three names every 100 ms while someone listens.
 */
export function documentCookieJar(document: { cookie: string } | undefined = (globalThis as { document?: { cookie: string } }).document): CookieJar {
  if (!document) throw new Error("The cookie token store needs a browser document; on a server pass a cookieJar, or use a request or memory token store.");
  let parsedHeader: string | undefined;
  let parsed = new Map<string, string>();
  return {
    get(name) {
      const header = document.cookie;
      if (header !== parsedHeader) {
        parsed = parseCookieHeader(header);
        parsedHeader = header;
      }
      return parsed.get(name);
    },
    set(name, value, { maxAgeSeconds, secure }) {
      document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
    },
    delete(name) {
      document.cookie = `${encodeURIComponent(name)}=; Max-Age=0; Path=/`;
    },
  };
}

/** Cookie pairs of a `Cookie` header or of `document.cookie`; the first value of a repeated name wins. */
export function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header.split(";")) {
    const index = pair.indexOf("=");
    if (index < 0) continue;
    const name = safeDecode(pair.slice(0, index).trim());
    if (name === "" || cookies.has(name)) continue;
    let value = pair.slice(index + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    cookies.set(name, safeDecode(value));
  }
  return cookies;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
