import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownError } from "@latchkey/protocol/errors";
import { authenticate, resolveAuth } from "./http/auth.js";
import { recordRequestActivity } from "./http/user-activity.js";
import { requestDeviceFacts } from "./http/session-device.js";
import { parseBody } from "./http/body.js";
import { limitBodySize } from "./http/body-limit.js";
import { addSecurityHeaders } from "./http/security-headers.js";
import { isCompleteAnswer, NO_STORE } from "./http/answer.js";
import { MemoRouter } from "./http/memo-router.js";
import { databaseUnavailableResponse, isDatabaseUnavailable } from "./http/database-unavailable.js";
import { beginWork, waitForRoute } from "./http/drain.js";
import { createAppMetrics, metricsRoutes, routeLabel } from "./http/metrics.js";
import { scopedToRequest } from "./db/request-scope.js";
import type { RequestDeviceFacts } from "./services/session-device.js";
import type { RequestTokenFacts } from "./services/sessions.js";
import type { AppDeps, AppEnv } from "./http/context.js";
import { apiHeaders } from "./http/headers.js";
import { lazyRequestLog } from "./http/request-log.js";
import { knownErrorResponse } from "./http/known-error-response.js";
import { dialectOf, requestHeaderNames, setProtocolHeader } from "./http/dialect.js";
import { anonymousAuthRoutes } from "./routes/auth-anonymous.js";
import { passwordAuthRoutes } from "./routes/auth-password.js";
import { sessionsRoutes } from "./routes/auth-sessions.js";
import { internalApiKeysRoutes } from "./routes/internal-api-keys.js";
import { internalEmailsRoutes } from "./routes/internal-emails.js";
import { internalFailedEmailsDigestRoutes } from "./routes/internal-failed-emails-digest.js";
import { devOutboxRoutes } from "./routes/dev-outbox.js";
import { devWebhooksRoutes } from "./routes/dev-webhooks.js";
import { devOAuthRoutes } from "./dev-oauth/routes.js";
import { demoPagesRoutes } from "./routes/demo-pages.js";
import { internalProjectsRoutes } from "./routes/internal-projects.js";
import { jwksRoutes } from "./routes/jwks.js";
import { internalMetricsRoutes } from "./routes/internal-metrics.js";
import { usersRoutes } from "./routes/users.js";
import { profileImagesRoutes } from "./routes/profile-images.js";
import { internalOnboardingRoutes } from "./routes/internal-onboarding.js";
import { internalConfigRoutes } from "./routes/internal-config.js";
import { projectsRoutes } from "./routes/projects.js";
import { welcomeRoutes } from "./routes/welcome.js";
import { apiDocsRoutes } from "./routes/api-docs.js";
import { mountRoutes, ResponseSchemaMismatch, type Route } from "./http/route.js";
import { teamInvitationsRoutes } from "./routes/team-invitations.js";
import { projectApiKeysRoutes } from "./routes/project-api-keys.js";
import { contactChannelsRoutes } from "./routes/contact-channels.js";
import { passwordResetRoutes } from "./routes/auth-password-reset.js";
import { otpAuthRoutes } from "./routes/auth-otp.js";
import { passkeyAuthRoutes } from "./routes/auth-passkey.js";
import { mfaAuthRoutes } from "./routes/auth-mfa.js";
import { cliAuthRoutes } from "./routes/auth-cli.js";
import { signInInvitationRoutes } from "./routes/internal-sign-in-invitation.js";
import { sendEmailRoutes } from "./routes/send-email.js";
import { featureSupportRoutes } from "./routes/feature-support.js";
import { notificationPreferencesRoutes } from "./routes/notification-preferences.js";
import { permissionsRoutes } from "./routes/permissions.js";
import { teamsRoutes } from "./routes/teams.js";
import { teamMembershipsRoutes } from "./routes/team-memberships.js";
import { teamMemberProfilesRoutes } from "./routes/team-member-profiles.js";
import { teamMemberRolesRoutes } from "./routes/team-member-roles.js";
import { analyticsRoutes } from "./routes/analytics.js";
import { oauthFlowRoutes } from "./routes/auth-oauth.js";
import { connectedAccountsRoutes } from "./routes/connected-accounts.js";
import { oauthProvidersRoutes } from "./routes/oauth-providers.js";
import { oauthIconsRoutes } from "./routes/oauth-icons.js";
import { staticBundlesRoutes } from "./routes/static-bundles.js";
import { healthRoutes } from "./routes/health.js";
import { hostedHandlerPagesRoutes } from "./routes/hosted-handler-pages.js";
import { purchasePageRoutes } from "./routes/purchase-page.js";
import { dashboardRoutes } from "./routes/dashboard.js";
import { hostedHandoffRoutes } from "./routes/auth-hosted-handoff.js";
import { webhooksRoutes } from "./routes/webhooks.js";
import { svixCompatibleRoutes } from "./routes/webhooks-svix.js";
import { internalEmailThemesRoutes } from "./routes/internal-email-themes.js";
import { internalEmailTemplatesRoutes } from "./routes/internal-email-templates.js";
import { internalEmailDraftsRoutes } from "./routes/internal-email-drafts.js";
import { renderEmailRoutes } from "./routes/render-email.js";
import { paymentsItemsRoutes } from "./routes/payments-items.js";
import { paymentsPurchasesRoutes } from "./routes/payments-purchases.js";
import { paymentsStripeRoutes } from "./routes/payments-stripe.js";
import { paymentsTransactionsRoutes } from "./routes/payments-transactions.js";
import { dataVaultRoutes } from "./routes/data-vault.js";
import serverPackage from "../package.json" with { type: "json" };

/**
 * Every route of the API, each declared once (http/route.ts); the OpenAPI document lists exactly these.
 *
 * Deliberately absent: `GET /internal/backend-urls`, with which 2.8.108 clients whose base URL comes from the
 * environment look for other base URLs to use instead (and to fall back on). A Latchkey server has one base URL,
 * and the one it could announce (LATCHKEY_PUBLIC_URL, or the Host it was reached by) need not be the one a
 * client can reach (a server-side client on an internal address, a proxy): the client ignores the 404 and
 * keeps the URL it was given, as when its app names the base URL explicitly.
 */
export const API_ROUTES: readonly Route[] = [
  ...welcomeRoutes,
  ...usersRoutes,
  ...passwordAuthRoutes,
  ...anonymousAuthRoutes,
  ...sessionsRoutes,
  ...oauthFlowRoutes,
  ...connectedAccountsRoutes,
  ...oauthProvidersRoutes,
  ...passwordResetRoutes,
  ...otpAuthRoutes,
  ...mfaAuthRoutes,
  ...cliAuthRoutes,
  ...hostedHandoffRoutes,
  ...profileImagesRoutes,
  ...contactChannelsRoutes,
  ...notificationPreferencesRoutes,
  ...sendEmailRoutes,
  ...internalEmailsRoutes,
  ...internalFailedEmailsDigestRoutes,
  ...internalEmailThemesRoutes,
  ...internalEmailTemplatesRoutes,
  ...internalEmailDraftsRoutes,
  ...renderEmailRoutes,
  ...signInInvitationRoutes,
  ...featureSupportRoutes,
  ...teamsRoutes,
  ...teamMembershipsRoutes,
  ...teamMemberProfilesRoutes,
  ...teamMemberRolesRoutes,
  ...teamInvitationsRoutes,
  ...permissionsRoutes,
  ...projectApiKeysRoutes,
  ...projectsRoutes,
  ...internalProjectsRoutes,
  ...internalConfigRoutes,
  ...internalOnboardingRoutes,
  ...internalApiKeysRoutes,
  ...internalMetricsRoutes,
  ...jwksRoutes,
  ...passkeyAuthRoutes,
  ...analyticsRoutes,
  ...webhooksRoutes,
  ...paymentsItemsRoutes,
  ...paymentsPurchasesRoutes,
  ...paymentsStripeRoutes,
  ...paymentsTransactionsRoutes,
  ...dataVaultRoutes,
  ...apiDocsRoutes(() => API_ROUTES, serverPackage.version),
];

/** The API answers under both prefixes, as the protocol's server does. */
export const API_PREFIXES = ["/api/v1", "/api/latest"] as const;

/** The whole HTTP application; `deps` carries the database, configuration and logger. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  // Every route ends up in this app's router (sub-apps' routes are copied in): it remembers what it found per path.
  const app = new Hono<AppEnv>({ router: new MemoRouter() });
  const metrics = createAppMetrics(deps);

  app.use("*", async function requestContext(c, next) {
    const requestId = crypto.randomUUID();
    const started = performance.now();
    const { dialect, mixed, named } = dialectOf(requestHeaderNames(c));
    // The request's own view of the database: it sees what the request writes, knows its device, and which
    // version's claims the access tokens it makes carry (services/sessions.ts).
    const facts: RequestDeviceFacts & RequestTokenFacts = { ...requestDeviceFacts(c), tokenDialect: named ? dialect : null };
    const { db, scope } = scopedToRequest(deps.db, facts);
    c.set("deps", { ...deps, db });
    c.set("requestId", requestId);
    c.set("dialect", dialect);
    c.set("mixedDialects", mixed);
    const log = lazyRequestLog(deps.log, requestId);
    c.set("log", log);
    await next();
    addSecurityHeaders(c);
    // What this request wrote must be out of every cache before its caller can send the next request.
    if (scope.announcedChanges) await deps.changes.sync();
    // A declared route's JSON answer has both already (http/answer.ts).
    if (!isCompleteAnswer(c.res)) {
      setProtocolHeader(c.res.headers, dialect, "request-id", requestId);
      // API answers are per caller and must never be cached, unless a route says otherwise (the JWKS).
      if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", NO_STORE);
    }
    const ms = performance.now() - started;
    metrics.requests.record(c.req.method, routeLabel(c), c.res.status, ms / 1000);
    if (deps.log.isLevelEnabled("info")) log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms) }, "request");
  });

  app.onError((error, c) => {
    if (error instanceof KnownError) return knownErrorResponse(error, c.get("dialect"));
    if (error instanceof ResponseSchemaMismatch) {
      // Only with LATCHKEY_CHECK_RESPONSES (the tests): say what differs, so the failing test shows it.
      return new Response(error.message, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (error instanceof HTTPException) {
      // A response the thrower built itself (a 429 with its Retry-After) is sent as it is.
      if (error.res) return error.getResponse();
      return new Response(error.message, { status: error.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (isDatabaseUnavailable(error)) {
      c.get("log").warn({ err: error }, "database unavailable");
      return databaseUnavailableResponse();
    }
    // Unknown failures: the cause goes to the log with the request id, never to the caller.
    c.get("log").error({ err: error }, "unhandled error");
    return new Response(`Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: ${c.get("requestId")}`, {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  });

  app.route("/", healthRoutes());
  app.route("/", metricsRoutes(metrics));

  app.use("/api/*", apiHeaders());

  const api = new Hono<AppEnv>();
  mountRoutes(api, API_ROUTES);
  // Svix's API, not the Stack protocol's (routes/webhooks-svix.ts): outside API_ROUTES and the OpenAPI document.
  api.use("/webhooks/svix/*", async function svixRouteBegins(c, next) {
    beginWork(c.req.raw);
    await next();
  });
  api.route("/webhooks/svix", svixCompatibleRoutes());

  for (const prefix of API_PREFIXES) {
    // One middleware rather than five (each layer costs every request a closure and a promise), in this order:
    // - not started until its route's handler runs (http/route.ts): a shutdown may still answer it 503 until then;
    // - the body's size limited (a streamed body counted as the rest reads it), then the body read and parsed;
    // - the caller authenticated (http/auth.ts), and the signed-in user's activity recorded (http/user-activity.ts).
    const bodySizeLimit = limitBodySize();
    app.use(`${prefix}/*`, async function apiRequest(c, next) {
      waitForRoute(c.req.raw);
      return bodySizeLimit(c, async () => {
        c.set("body", await parseBody(c.req.raw));
        c.set("auth", await authenticate(c));
        await recordRequestActivity(c);
        await next();
      });
    });
    app.use(prefix, resolveAuth());
    app.route(prefix, api);
  }
  app.route("/", devOutboxRoutes());
  app.route("/", devWebhooksRoutes());
  app.route("/", devOAuthRoutes());
  app.route("/", oauthIconsRoutes());
  app.route("/", staticBundlesRoutes());
  app.route("/", hostedHandlerPagesRoutes());
  app.route("/", purchasePageRoutes());
  app.route("/", dashboardRoutes());
  app.route("/", demoPagesRoutes());

  app.notFound((c) => c.text("Not found", 404));
  return app;
}
