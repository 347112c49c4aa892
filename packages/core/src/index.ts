/**
 * @latchkey/core: the framework-agnostic Latchkey client. Client, Server and Admin apps over the Stack Auth
 * REST API v1, with sessions, token stores and nanostores state (no DOM needed for server use).
 *
 * @example
 * ```ts
 * import { createClientApp } from "@latchkey/core";
 * const app = createClientApp({ projectId, publishableClientKey, baseUrl: "http://localhost:8102" });
 * app.$user.subscribe((state) => state.status === "ready" && console.log(state.value?.displayName));
 * await app.signInWithCredential({ email: "ada@example.com", password: "correct horse battery" });
 * ```
 */
export { createClientApp, type ClientApp, type ClientAppOptions, type ClientAppStores } from "./apps/client-app.js";
export { createServerApp, type ServerApp, type ServerAppOptions, type UserListOptions } from "./apps/server-app.js";
export { createAdminApp, type AdminApp, type AdminAppOptions } from "./apps/admin-app.js";
export type { AppOptions, TokenStoreInit } from "./apps/app-context.js";
export type { SignInResult, RedirectOptions } from "./apps/client-auth-actions.js";
export type { OAuthConnection, ConnectedAccount } from "./apps/client-oauth.js";
export type { ClientConnectedAccountActions } from "./apps/client-connected-accounts.js";
export { NotSignedInError, type GetUserOr } from "./apps/client-user-actions.js";
export type { ClientAccountActions } from "./apps/client-account-actions.js";
export type { ClientTeamActions } from "./apps/client-team-actions.js";
export type { ClientProjectActions } from "./apps/client-project-actions.js";
export { paymentsOf, NoCustomerError, type ClientPaymentActions, type CustomerOptions } from "./apps/client-payment-actions.js";
export type { ServerItem, ServerPaymentActions, QuantityChangeOptions } from "./apps/server-payment-actions.js";
export type { DataVaultStore, DataVaultSecretOptions, ServerDataVaultActions } from "./apps/server-data-vault-actions.js";
export { DataVaultDecryptionError } from "./apps/data-vault-crypto.js";
export type { AdminPaymentActions, StripeAccountInfo, TransactionListOptions } from "./apps/admin-payment-actions.js";

export { promptCliLogin, completeCliLogin, type CliLoginOptions } from "./flows/cli-login.js";
export { registerPasskey, signInWithPasskey } from "./flows/passkeys.js";
export { createClientAppWithHostedPages, createHostedPageApp, hostedPageUrls, HANDOFF_PARAM } from "./flows/hosted-pages.js";

export { systemClock, type Clock } from "./clock.js";
export { HttpClient, type AccessType, type ApiRequest, type HttpClientOptions, type SessionTokens, type Tokens } from "./http/http-client.js";
export { HttpStatusError, NetworkError, OfflineError, ProtocolViolationError } from "./http/errors.js";
export { isSetupError } from "./http/setup-errors.js";
export { InsecureContextError } from "./flows/pkce.js";
export { Session, type RefreshAccessToken } from "./session/session.js";
export { readAccessToken, isAccessTokenFresh, type AccessTokenClaims } from "./session/access-token.js";

export type { TokenStore } from "./token-stores/token-store.js";
export { memoryTokenStore } from "./token-stores/memory-token-store.js";
export { deviceTokenStore, type DeviceTokenStore } from "./token-stores/device-token-store.js";
export { cookieTokenStore, type CookieTokenStoreOptions } from "./token-stores/cookie-token-store.js";
export { documentCookieJar, parseCookieHeader, type CookieJar } from "./token-stores/cookie-jar.js";
export { requestTokenStore, tokensOfRequest, type RequestLike } from "./token-stores/request-token-store.js";

export { cachedStore, type CachedStore, type Loadable } from "./stores/cached-store.js";
export type { SessionState } from "./stores/session-store.js";
export { resolveUrls, isRelativeUrl, type AppUrls } from "./urls.js";

export type { CurrentUser, ServerUser, UserUpdate, ServerUserUpdate, ServerUserCreate } from "./wire/users.js";
export type { Project, AdminProject, AdminProjectUpdate, OwnedProjectCreate } from "./wire/projects.js";
export type { Team, TeamCreate, TeamUpdate } from "./wire/teams.js";
export type { ContactChannel, ContactChannelCreate, ContactChannelUpdate } from "./wire/contact-channels.js";
export type { UserSession } from "./wire/sessions.js";
export type { UserOAuthLink, UserContactChannelUpdate } from "./apps/admin-user-actions.js";
export type { NotificationCategory } from "./wire/notification-categories.js";
export type { UserApiKey, UserApiKeyFirstView, UserApiKeyCreate } from "./wire/user-api-keys.js";
export type { TeamMemberProfile, TeamMemberProfileUpdate, TeamMemberRoles } from "./wire/team-member-profiles.js";
export type { TeamInvitation, TeamInvitationDetails } from "./wire/team-invitations.js";
export type { ServerTeam, ServerTeamCreate, ServerTeamUpdate, ServerTeamMember } from "./wire/server-teams.js";
export type { TeamPermissionGrant } from "./apps/admin-team-actions.js";
export type { PermissionDefinition, PermissionDefinitionCreate, PermissionDefinitionUpdate, PermissionScope } from "./wire/permission-definitions.js";
export type { InternalApiKey, InternalApiKeyFirstView, InternalApiKeyCreate, PublishableClientKey } from "./wire/api-keys.js";
export type {
  WebhookAttempt,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointMessage,
  WebhookEndpointUpdate,
  WebhookEventType,
  WebhookPayloadVersion,
} from "./wire/webhooks.js";
export { WEBHOOK_PAYLOAD_VERSIONS } from "./wire/webhooks.js";
export { WebhookApiError } from "./apps/admin-webhook-actions.js";
export type { Customer, CustomerType, Currency, Interval, Item, Offer, OfferList, Price, Transaction } from "./wire/payments.js";
export { CURRENCIES } from "./wire/payments.js";
export type { ProjectMetrics, MetricsDay } from "./wire/metrics.js";
export type {
  EmailDraft,
  EmailDraftCreate,
  EmailDraftUpdate,
  EmailPreview,
  EmailPreviewRequest,
  EmailTemplate,
  EmailTemplateUpdate,
  EmailTheme,
  EmailThemeChoice,
  EmailThemeSummary,
} from "./wire/emails-as-code.js";
export type { SendEmailOptions } from "./apps/admin-email-actions.js";
export type { ProjectConfigObject, ConfigOverrideChange } from "./apps/admin-config-actions.js";
export type { SentEmail, SentEmailSender, TestEmailResult, TestEmailServer } from "./wire/sent-emails.js";
export { emailConfigToWire } from "./wire/sent-emails.js";
export * as constants from "./constants.js";

// Known errors come from the shared catalogue: `error instanceof KnownErrors.UserNotFound`.
// (Importing `KnownErrors` declares the whole catalogue; bundles that never name it stay small.)
export { KnownError } from "@latchkey/protocol/errors/known-error";
export { KnownErrors } from "@latchkey/protocol/errors";
