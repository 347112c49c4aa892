// What `npm run bench` measures: four scenarios, each with a Latchkey side and its closest Better Auth
// equivalent. A side's `prepare(server)` does the untimed set-up (signing users in for fresh tokens) and
// returns `{ next, check }` for runLoad: `next()` builds one request, `check()` accepts a 2xx answer.

/** Same password for every bench user; within both servers' length limits. */
export const PASSWORD = "bench-Password-0123456789";
/** Users created before the timed runs, signed in round-robin by the sign-in scenario. */
export const USER_COUNT = 64;

export const LATCHKEY_CLIENT_HEADERS = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": "this-publishable-client-key-is-for-local-development-only",
};
const JSON_HEADERS = { "content-type": "application/json" };
// Better Auth refuses a POST without an Origin header (MISSING_OR_NULL_ORIGIN); a browser sends its own.
const betterAuthPostHeaders = (origin) => ({ ...JSON_HEADERS, origin });

const runTag = Date.now().toString(36);
let emailCounter = 0;
const uniqueEmail = (server) => `${server}-${runTag}-${emailCounter++}@bench.example.com`;
const roundRobin = (items) => {
  let i = 0;
  return () => items[i++ % items.length];
};

/** Runs `task(item)` for every item, `limit` at a time. */
export async function forEachLimited(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]);
      }
    }),
  );
  return results;
}

export async function fetchOk(url, init) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return { response, text };
}

export const latchkey = {
  name: "Latchkey",
  signUp: (origin, email) =>
    fetchOk(`${origin}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { ...LATCHKEY_CLIENT_HEADERS, ...JSON_HEADERS },
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  /** A fresh session: `{ accessToken, refreshToken }`. */
  async signIn(origin, email) {
    const { text } = await fetchOk(`${origin}/api/v1/auth/password/sign-in`, {
      method: "POST",
      headers: { ...LATCHKEY_CLIENT_HEADERS, ...JSON_HEADERS },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const body = JSON.parse(text);
    return { accessToken: body.access_token, refreshToken: body.refresh_token };
  },
};

export const betterAuth = {
  name: "Better Auth",
  signUp: (origin, email) =>
    fetchOk(`${origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: betterAuthPostHeaders(origin),
      body: JSON.stringify({ email, password: PASSWORD, name: "Bench User" }),
    }),
  /** A fresh session: the `name=value` pairs of the cookies sign-in set, by name. */
  async signIn(origin, email) {
    const { response } = await fetchOk(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: betterAuthPostHeaders(origin),
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const cookies = {};
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      cookies[pair.slice(0, pair.indexOf("="))] = pair;
    }
    const sessionToken = cookies["better-auth.session_token"];
    const sessionData = cookies["better-auth.session_data"];
    if (!sessionToken || !sessionData) throw new Error(`Better Auth sign-in set no session cookies: ${Object.keys(cookies).join(", ")}`);
    return { sessionToken, sessionData };
  },
};

/** Creates the bench users on one server; returns their emails. */
export async function createUsers(server, origin) {
  const emails = Array.from({ length: USER_COUNT }, () => uniqueEmail(server === latchkey ? "lk-user" : "ba-user"));
  await forEachLimited(emails, 8, (email) => server.signUp(origin, email));
  return emails;
}

const signInAll = (server, origin, emails) => forEachLimited(emails, 8, (email) => server.signIn(origin, email));

/**
 * Each scenario: `sides.latchkey` and `sides.betterAuth`, each `prepare({ origin, emails }) → { next, check }`.
 */
export const SCENARIOS = [
  {
    name: "sign-up",
    sides: {
      latchkey: async () => ({
        next: () => ({
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: { ...LATCHKEY_CLIENT_HEADERS, ...JSON_HEADERS },
          body: JSON.stringify({ email: uniqueEmail("lk"), password: PASSWORD }),
        }),
        check: (_status, body) => body.includes('"access_token"'),
      }),
      betterAuth: async ({ origin }) => ({
        next: () => ({
          method: "POST",
          path: "/api/auth/sign-up/email",
          headers: betterAuthPostHeaders(origin),
          body: JSON.stringify({ email: uniqueEmail("ba"), password: PASSWORD, name: "Bench User" }),
        }),
        check: (_status, body) => body.includes('"token"'),
      }),
    },
  },
  {
    name: "sign-in",
    sides: {
      latchkey: async ({ emails }) => {
        const email = roundRobin(emails);
        return {
          next: () => ({
            method: "POST",
            path: "/api/v1/auth/password/sign-in",
            headers: { ...LATCHKEY_CLIENT_HEADERS, ...JSON_HEADERS },
            body: JSON.stringify({ email: email(), password: PASSWORD }),
          }),
          check: (_status, body) => body.includes('"access_token"'),
        };
      },
      betterAuth: async ({ origin, emails }) => {
        const email = roundRobin(emails);
        return {
          next: () => ({
            method: "POST",
            path: "/api/auth/sign-in/email",
            headers: betterAuthPostHeaders(origin),
            body: JSON.stringify({ email: email(), password: PASSWORD }),
          }),
          check: (_status, body) => body.includes('"token"'),
        };
      },
    },
  },
  {
    name: "current user",
    sides: {
      // Verifies the ES256 access token, then reads the user.
      latchkey: async ({ origin, emails }) => {
        const session = roundRobin(await signInAll(latchkey, origin, emails));
        return {
          next: () => ({
            method: "GET",
            path: "/api/v1/users/me",
            headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-access-token": session().accessToken },
          }),
          check: (_status, body) => body.includes('"primary_email"'),
        };
      },
      // With both cookies sign-in set, as a browser sends them: answered from the signed session-data
      // cookie (Better Auth's cookie cache) while it is fresh, without the database.
      betterAuth: async ({ origin, emails }) => {
        const session = roundRobin(await signInAll(betterAuth, origin, emails));
        return {
          next: () => {
            const { sessionToken, sessionData } = session();
            return { method: "GET", path: "/api/auth/get-session", headers: { cookie: `${sessionToken}; ${sessionData}` } };
          },
          check: (_status, body) => body.startsWith('{"session"'),
        };
      },
    },
  },
  {
    name: "token refresh",
    sides: {
      // Looks the refresh token's session up, reads the user, signs a new ES256 access token.
      latchkey: async ({ origin, emails }) => {
        const session = roundRobin(await signInAll(latchkey, origin, emails));
        return {
          next: () => ({
            method: "POST",
            path: "/api/v1/auth/sessions/current/refresh",
            headers: { ...LATCHKEY_CLIENT_HEADERS, "x-stack-refresh-token": session().refreshToken },
          }),
          check: (_status, body) => body.includes('"access_token"'),
        };
      },
      // Better Auth has no refresh endpoint: its closest equivalent is get-session with the cookie cache
      // bypassed (`disableCookieCache=true`) and only the long-lived session-token cookie, which looks the
      // session and user up in the database and signs a fresh session-data cookie, the short-lived
      // credential. Its other "refresh", pushing the session's expiry forward, writes only once per
      // `updateAge` (a day by default), as Latchkey writes last-used times at most once a minute.
      betterAuth: async ({ origin, emails }) => {
        const session = roundRobin(await signInAll(betterAuth, origin, emails));
        return {
          next: () => ({ method: "GET", path: "/api/auth/get-session?disableCookieCache=true", headers: { cookie: session().sessionToken } }),
          check: (_status, body, headers) => body.startsWith('{"session"') && String(headers["set-cookie"] ?? "").includes("better-auth.session_data="),
        };
      },
    },
  },
];
