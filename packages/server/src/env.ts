import type { BlockList } from "node:net";
import { z } from "zod";
import { addressListProblem, LOOPBACK_RANGES, parseAddressList } from "./http/client-ip.js";
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/protocol/schemas";

/**
 * Server configuration, read once from the environment and validated at start. Every variable is listed
 * in the README's configuration table; keep the two in step.
 */
const boolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** Comma-separated addresses and CIDR ranges. */
const addressList = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    const problem = value === undefined ? undefined : addressListProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const environmentSchema = z.object({
  LATCHKEY_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  // Connections each process keeps to PostgreSQL at most; processes × this must stay under the server's max_connections.
  LATCHKEY_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  LATCHKEY_DATA_DIR: z.string().min(1).default("./.latchkey"),
  LATCHKEY_PORT: z.coerce.number().int().min(0).max(65535).default(8102),
  LATCHKEY_HOST: z.string().min(1).default("0.0.0.0"),
  LATCHKEY_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  LATCHKEY_DEV_MODE: boolean.optional(),
  LATCHKEY_SERVER_SECRET: z.string().optional(),
  LATCHKEY_PREVIOUS_SERVER_SECRETS: z.string().optional(),
  LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY: z.string().min(1).optional(),
  LATCHKEY_SEED_SECRET_SERVER_KEY: z.string().min(1).optional(),
  LATCHKEY_SEED_SUPER_SECRET_ADMIN_KEY: z.string().min(1).optional(),
  LATCHKEY_INTERNAL_PROJECT_NAME: z.string().min(1).max(256).default("Latchkey"),
  LATCHKEY_INTERNAL_PROJECT_DESCRIPTION: z.string().max(1024).default("The project that owns and administers every other project on this server."),
  LATCHKEY_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // 20 s: on a loaded 2-core machine with embedded PGlite, 10 s left in-flight sign-ups unstarted in 2 runs of 3
  // (bench/shutdown-drain.mjs, README "Shutdown"); 20 s finished all of them.
  LATCHKEY_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(20_000),
  LATCHKEY_SHUTDOWN_HARD_LIMIT_MS: z.coerce.number().int().min(0).default(60_000),
  // 1.5 MB: a profile image as a 1,000,000-character data URL, with the rest of its request, still fits.
  LATCHKEY_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_500_000),
  LATCHKEY_TRUSTED_PROXIES: addressList,
  LATCHKEY_RATE_LIMIT_EXEMPT: addressList,
  // Long enough that it cannot be guessed; a bearer token travels with every scrape.
  LATCHKEY_METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  // The scheduler's bearer token for POST /internal/failed-emails-digest (the server also runs the digest daily itself).
  LATCHKEY_CRON_SECRET: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  LATCHKEY_SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  LATCHKEY_SMTP_HOST: z.string().min(1).optional(),
  LATCHKEY_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  LATCHKEY_SMTP_SECURE: boolean.optional(),
  LATCHKEY_SMTP_USER: z.string().min(1).optional(),
  LATCHKEY_SMTP_PASSWORD: z.string().optional(),
  LATCHKEY_EMAIL_SENDER: z.email({ error: "must be an email address" }).optional(),
  LATCHKEY_CHECK_RESPONSES: boolean.optional(),
  LATCHKEY_SIGNING_KEY_ROTATION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: boolean.optional(),
  LATCHKEY_ALLOW_SHARED_OAUTH_ACCESS_TOKENS: boolean.optional(),
  LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: boolean.optional(),
  LATCHKEY_SVIX_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  LATCHKEY_SVIX_API_KEY: z.string().min(1).optional(),
  LATCHKEY_OAUTH_DEV_ISSUER: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  LATCHKEY_OAUTH_DEV_CLIENT_SECRET: z.string().min(1).default("MOCK-SERVER-SECRET"),
  LATCHKEY_STRIPE_SECRET_KEY: z.string().min(1).optional(),
  LATCHKEY_STRIPE_API_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  LATCHKEY_STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  LATCHKEY_STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  NODE_ENV: z.string().optional(),
});

/** The protocol's well-known keys for local development (never accepted outside dev mode). */
export const WELL_KNOWN_DEV_KEYS = {
  publishableClientKey: "this-publishable-client-key-is-for-local-development-only",
  secretServerKey: "this-secret-server-key-is-for-local-development-only",
  superSecretAdminKey: "this-super-secret-admin-key-is-for-local-development-only",
} as const;

const WELL_KNOWN_KEYS = new Set<string>(Object.values(WELL_KNOWN_DEV_KEYS));

/** Outside dev mode the protocol's published development keys never authenticate, wherever they are stored. */
export function isKeyAllowedInThisMode(env: Pick<Env, "devMode">, key: string): boolean {
  return env.devMode || !WELL_KNOWN_KEYS.has(key);
}

/** The reference's development Stripe key: in dev mode it means a Stripe mock on STRIPE_MOCK_URL. */
export const STRIPE_MOCK_KEY = "sk_test_mockstripekey";
const STRIPE_MOCK_URL = "http://localhost:8123";

const DEV_SERVER_SECRET = "latchkey-development-server-secret-do-not-use-in-production";

export interface Env {
  databaseUrl: string | undefined;
  /** The most connections this process's PostgreSQL pool opens (LATCHKEY_DATABASE_POOL_SIZE; PGlite has one). */
  databasePoolSize: number;
  dataDir: string;
  port: number;
  host: string;
  publicUrl: string;
  devMode: boolean;
  serverSecret: string;
  /** Secrets used before the current one: tokens they signed still verify and their keys stay in the JWKS. */
  previousServerSecrets: string[];
  accessTokenLifetimeSeconds: number;
  seedKeys: { publishableClientKey?: string; secretServerKey?: string; superSecretAdminKey?: string };
  internalProject: { displayName: string; description: string };
  logLevel: string;
  /** After SIGTERM, how long requests received may still start; those that have not are answered 503 then. */
  shutdownTimeoutMs: number;
  /** After SIGTERM, the longest started requests get to finish (at least the grace); then the process exits. */
  shutdownHardLimitMs: number;
  /** Larger request bodies are refused with 413 before they are read. */
  maxBodyBytes: number;
  /** The reverse proxies whose X-Forwarded-For is believed (http/client-ip.ts). */
  trustedProxies: BlockList;
  /**
   * Clients never counted per client address (http/client-ip.ts `countedClientIp`): LATCHKEY_RATE_LIMIT_EXEMPT,
   * and in dev mode loopback, so that a developer's own test suite against `npm start` is not refused.
   */
  rateLimitExempt: BlockList;
  /**
   * The bearer token `/metrics` asks for. Without one the route is open in dev mode and off (404) outside it;
   * with one it is required in both.
   */
  metricsToken: string | undefined;
  /** Bearer token an outside scheduler presents to `POST /internal/failed-emails-digest`; unset: the route refuses everyone. */
  cronSecret: string | undefined;
  /** The server's own SMTP server for projects on the `shared` email config; null sends mail to the dev outbox. */
  sharedSmtp: SharedSmtpSettings | null;
  /** Sender address of mail sent through the shared server (and shown for outbox mail). */
  emailSender: string;
  /** Check every JSON answer against its route's declared schema (the test suites turn this on). */
  checkResponses: boolean;
  /** Days between automatic rotations of the access-token signing keys (services/signing-keys.ts); 0: never. */
  signingKeyRotationDays: number;
  /**
   * Both passkey initiate routes use the challenge `MOCK`, so that client test suites written for the
   * protocol's server (which pre-record their credentials) run unchanged. Dev mode only.
   */
  hardcodedPasskeyChallenge: boolean;
  /**
   * Connected-account access tokens from providers on shared OAuth keys (refused by default: the keys are the
   * server's, not the project's). For test suites and single-tenant servers.
   */
  allowSharedOAuthAccessTokens: boolean;
  /**
   * Webhook endpoints on loopback and private addresses (services/webhook-targets.ts). Refused by default outside
   * dev mode, so that project admins cannot make the server call into its own network (SSRF).
   */
  webhooksAllowPrivateTargets: boolean;
  /**
   * An external OpenID issuer the `shared` OAuth providers use when the server has no credentials for them
   * (test suites); unset, dev mode uses the built-in one under /dev/oauth (dev-oauth/). Client id = the
   * provider type, secret = `oauthDevClientSecret`.
   */
  oauthDevIssuer: string | undefined;
  oauthDevClientSecret: string;
  /**
   * A real Svix server that takes the webhook events instead of the built-in engine (services/webhook-svix-forwarder.ts),
   * and whose app portal `POST /webhooks/svix-token` hands out tokens for; undefined: the built-in engine.
   */
  svix: { url: string; apiKey: string } | undefined;
  /**
   * Stripe (issue 32, services/stripe/): the platform's secret key, the API host the client talks to (Stripe's
   * own when undefined; dev mode's mock key `sk_test_mockstripekey` means http://localhost:8123), and the secret
   * Stripe signs webhook events with. No key: every project's payments run in test mode.
   */
  stripe: { secretKey: string; apiUrl: string | undefined; webhookSecret: string | undefined } | undefined;
  /** The platform's publishable Stripe key, with which the purchase page loads Stripe.js (Payment Element). */
  stripePublishableKey?: string;
  /** The server's own credentials for `shared` providers (LATCHKEY_OAUTH_<TYPE>_CLIENT_ID / _CLIENT_SECRET). */
  oauthSharedCredentials: Partial<Record<OAuthProviderId, { clientId: string; clientSecret: string }>>;
}

/** Either a URL (`smtp://user:pass@host:587`, `smtps://…`) or host settings. */
export type SharedSmtpSettings =
  | { url: string }
  | { host: string; port: number; secure: boolean; user: string | undefined; password: string | undefined };

export class EnvError extends Error {}

/**
 * What a bad configuration prints before the start stops: one problem on one line (as every start-up failure,
 * startup-error.ts), several one per line under a heading.
 */
function configurationError(problems: string[]): EnvError {
  if (problems.length === 1) return new EnvError(`Invalid Latchkey configuration: ${problems[0]}`);
  return new EnvError(`Invalid Latchkey configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
}

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    // Values are echoed to help, except where they may carry credentials (URLs, secrets, passwords, keys, tokens).
    const echo = (name: string) => (/URL|SECRET|PASSWORD|KEY|TOKEN/.test(name) ? "" : ` (got ${JSON.stringify(source[name])})`);
    throw configurationError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}${echo(String(issue.path[0]))}`));
  }
  const e = parsed.data;
  const devMode = e.LATCHKEY_DEV_MODE ?? e.NODE_ENV !== "production";
  if (!devMode && (e.LATCHKEY_SERVER_SECRET ?? "").length < 32) {
    throw configurationError(["LATCHKEY_SERVER_SECRET: must be set to at least 32 characters outside dev mode"]);
  }
  const seedKeys = {
    publishableClientKey: e.LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY ?? (devMode ? WELL_KNOWN_DEV_KEYS.publishableClientKey : undefined),
    secretServerKey: e.LATCHKEY_SEED_SECRET_SERVER_KEY ?? (devMode ? WELL_KNOWN_DEV_KEYS.secretServerKey : undefined),
    superSecretAdminKey: e.LATCHKEY_SEED_SUPER_SECRET_ADMIN_KEY ?? (devMode ? WELL_KNOWN_DEV_KEYS.superSecretAdminKey : undefined),
  };
  if (!devMode) {
    for (const [name, value] of Object.entries(seedKeys)) {
      if (value !== undefined && (Object.values(WELL_KNOWN_DEV_KEYS) as string[]).includes(value)) {
        throw configurationError([`seed ${name}: the well-known development key cannot be used outside dev mode`]);
      }
    }
  }
  if ((e.LATCHKEY_SVIX_URL === undefined) !== (e.LATCHKEY_SVIX_API_KEY === undefined)) {
    throw configurationError(["LATCHKEY_SVIX_URL and LATCHKEY_SVIX_API_KEY: set both (to hand webhooks to that Svix server) or neither"]);
  }
  if (!devMode && e.LATCHKEY_STRIPE_SECRET_KEY === STRIPE_MOCK_KEY && !e.LATCHKEY_STRIPE_API_URL) {
    throw configurationError([`LATCHKEY_STRIPE_SECRET_KEY: the mock key ${STRIPE_MOCK_KEY} talks to a local Stripe mock, in dev mode only (or set LATCHKEY_STRIPE_API_URL)`]);
  }
  if (!devMode && e.LATCHKEY_STRIPE_SECRET_KEY && !e.LATCHKEY_STRIPE_WEBHOOK_SECRET) {
    // Without it no payment is ever recorded: Stripe's events are how purchases arrive.
    throw configurationError(["LATCHKEY_STRIPE_WEBHOOK_SECRET: must be set with LATCHKEY_STRIPE_SECRET_KEY outside dev mode (Stripe's events record the purchases)"]);
  }
  if (!devMode && e.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING) {
    throw configurationError(["STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: a fixed passkey challenge is for tests, allowed in dev mode only"]);
  }
  return {
    databaseUrl: e.LATCHKEY_DATABASE_URL,
    databasePoolSize: e.LATCHKEY_DATABASE_POOL_SIZE,
    dataDir: e.LATCHKEY_DATA_DIR,
    port: e.LATCHKEY_PORT,
    host: e.LATCHKEY_HOST,
    publicUrl: (e.LATCHKEY_PUBLIC_URL ?? `http://localhost:${e.LATCHKEY_PORT}`).replace(/\/+$/, ""),
    devMode,
    serverSecret: e.LATCHKEY_SERVER_SECRET ?? DEV_SERVER_SECRET,
    previousServerSecrets: (e.LATCHKEY_PREVIOUS_SERVER_SECRETS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    accessTokenLifetimeSeconds: e.LATCHKEY_ACCESS_TOKEN_LIFETIME_SECONDS,
    seedKeys,
    internalProject: { displayName: e.LATCHKEY_INTERNAL_PROJECT_NAME, description: e.LATCHKEY_INTERNAL_PROJECT_DESCRIPTION },
    logLevel: e.LATCHKEY_LOG_LEVEL,
    shutdownTimeoutMs: e.LATCHKEY_SHUTDOWN_TIMEOUT_MS,
    shutdownHardLimitMs: e.LATCHKEY_SHUTDOWN_HARD_LIMIT_MS,
    maxBodyBytes: e.LATCHKEY_MAX_BODY_BYTES,
    trustedProxies: parseAddressList(e.LATCHKEY_TRUSTED_PROXIES),
    rateLimitExempt: parseAddressList(e.LATCHKEY_RATE_LIMIT_EXEMPT, devMode ? parseAddressList(LOOPBACK_RANGES) : undefined),
    metricsToken: e.LATCHKEY_METRICS_TOKEN,
    cronSecret: e.LATCHKEY_CRON_SECRET,
    sharedSmtp: sharedSmtpSettings(e),
    emailSender: e.LATCHKEY_EMAIL_SENDER ?? "noreply@latchkey.localhost",
    checkResponses: e.LATCHKEY_CHECK_RESPONSES ?? false,
    signingKeyRotationDays: e.LATCHKEY_SIGNING_KEY_ROTATION_DAYS,
    hardcodedPasskeyChallenge: e.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING ?? false,
    allowSharedOAuthAccessTokens: e.LATCHKEY_ALLOW_SHARED_OAUTH_ACCESS_TOKENS ?? false,
    webhooksAllowPrivateTargets: e.LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? devMode,
    oauthDevIssuer: e.LATCHKEY_OAUTH_DEV_ISSUER,
    oauthDevClientSecret: e.LATCHKEY_OAUTH_DEV_CLIENT_SECRET,
    svix: e.LATCHKEY_SVIX_URL && e.LATCHKEY_SVIX_API_KEY ? { url: e.LATCHKEY_SVIX_URL.replace(/\/+$/, ""), apiKey: e.LATCHKEY_SVIX_API_KEY } : undefined,
    oauthSharedCredentials: sharedOAuthCredentials(source),
    stripe: e.LATCHKEY_STRIPE_SECRET_KEY
      ? {
          secretKey: e.LATCHKEY_STRIPE_SECRET_KEY,
          apiUrl: e.LATCHKEY_STRIPE_API_URL ?? (devMode && e.LATCHKEY_STRIPE_SECRET_KEY === STRIPE_MOCK_KEY ? STRIPE_MOCK_URL : undefined),
          webhookSecret: e.LATCHKEY_STRIPE_WEBHOOK_SECRET,
        }
      : undefined,
    stripePublishableKey: e.LATCHKEY_STRIPE_PUBLISHABLE_KEY,
  };
}

/** For the command-line entry points: the configuration, or exit 2 with the message naming what is wrong. */
export function readEnvOrExit(): Env {
  try {
    return readEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** LATCHKEY_OAUTH_<TYPE>_CLIENT_ID and _CLIENT_SECRET for each provider type; both or neither. */
function sharedOAuthCredentials(source: Record<string, string | undefined>): Env["oauthSharedCredentials"] {
  const credentials: Env["oauthSharedCredentials"] = {};
  for (const type of OAUTH_PROVIDER_IDS) {
    const prefix = `LATCHKEY_OAUTH_${type.toUpperCase()}`;
    const clientId = source[`${prefix}_CLIENT_ID`] || undefined;
    const clientSecret = source[`${prefix}_CLIENT_SECRET`] || undefined;
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) {
      throw configurationError([`${prefix}_CLIENT_ID, ${prefix}_CLIENT_SECRET: set both or neither`]);
    }
    credentials[type] = { clientId, clientSecret };
  }
  return credentials;
}

function sharedSmtpSettings(e: z.output<typeof environmentSchema>): SharedSmtpSettings | null {
  if (e.LATCHKEY_SMTP_URL) return { url: e.LATCHKEY_SMTP_URL };
  if (!e.LATCHKEY_SMTP_HOST) return null;
  const port = e.LATCHKEY_SMTP_PORT ?? (e.LATCHKEY_SMTP_SECURE ? 465 : 587);
  return { host: e.LATCHKEY_SMTP_HOST, port, secure: e.LATCHKEY_SMTP_SECURE ?? port === 465, user: e.LATCHKEY_SMTP_USER, password: e.LATCHKEY_SMTP_PASSWORD };
}
