import type { AdminProjectRead, InternalApiKeyCreated, InternalApiKeyRead, InternalPublishableClientKey } from "@latchkey/protocol/schemas";
import type { SessionTokens } from "../http/http-client.js";
import {
  internalApiKeyFirstViewFromWire,
  internalApiKeyFromWire,
  publishableClientKeyFromWire,
  type InternalApiKey,
  type InternalApiKeyCreate,
  type InternalApiKeyFirstView,
  type PublishableClientKey,
} from "../wire/api-keys.js";
import { adminProjectFromWire, adminProjectUpdateToWire, type AdminProject, type AdminProjectUpdate } from "../wire/projects.js";
import { adminConfigActions } from "./admin-config-actions.js";
import { adminEmailActions } from "./admin-email-actions.js";
import { adminMetricsActions } from "./admin-metrics-actions.js";
import { adminProjectActions } from "./admin-project-actions.js";
import { adminEmailServerActions } from "./admin-email-server-actions.js";
import { adminUserActions } from "./admin-user-actions.js";
import { adminTeamActions } from "./admin-team-actions.js";
import { adminPermissionActions } from "./admin-permission-actions.js";
import { adminWebhookActions } from "./admin-webhook-actions.js";
import { adminPaymentActions } from "./admin-payment-actions.js";
import { createAppContext, type AppOptions } from "./app-context.js";
import { buildServerApp } from "./server-app.js";
import { normaliseBaseUrl } from "../urls.js";

/** An admin app authenticates with the project's super secret admin key, or as a project owner. */
export type AdminAppOptions = AppOptions & { secretServerKey?: string; publishableClientKey?: string } & (
    | { superSecretAdminKey: string; projectOwnerSession?: undefined }
    | {
        /** A signed-in session of the internal project whose user owns this project (e.g. `internalApp.session`). */
        projectOwnerSession: SessionTokens;
        superSecretAdminKey?: undefined;
      }
  );

export type AdminApp = ReturnType<typeof createAdminApp>;

/**
 * A project administrator's app: everything a server app does, plus the project's settings, key sets,
 * webhook endpoints and e-mail themes, templates and drafts.
 *
 * @example
 * ```ts
 * const admin = createAdminApp({ projectId, superSecretAdminKey, baseUrl });
 * const project = await admin.getAdminProject();
 * await admin.updateAdminProject({ config: { sign_up_enabled: false } });
 * ```
 */
export function createAdminApp(given: AdminAppOptions) {
  const options = { ...given, baseUrl: normaliseBaseUrl(given.baseUrl) };
  const ctx = createAppContext(options, "admin");
  const server = buildServerApp(ctx);
  return {
    ...server,
    ...adminWebhookActions(ctx),
    ...adminUserActions(ctx),
    ...adminTeamActions(ctx, options.baseUrl),
    ...adminPermissionActions(ctx),
    ...adminEmailActions(ctx),
    ...adminConfigActions(ctx),
    ...adminMetricsActions(ctx),
    ...adminProjectActions(ctx),
    ...adminEmailServerActions(ctx),
    ...adminPaymentActions(ctx, server.refreshPayments),

    async getAdminProject(): Promise<AdminProject> {
      return adminProjectFromWire(await ctx.call<AdminProjectRead>({ method: "GET", path: "/internal/projects/current", session: null }));
    },

    async updateAdminProject(update: AdminProjectUpdate): Promise<AdminProject> {
      const wire = await ctx.call<AdminProjectRead>({ method: "PATCH", path: "/internal/projects/current", body: adminProjectUpdateToWire(update), session: null });
      await server.$project.refresh();
      return adminProjectFromWire(wire);
    },

    async listInternalApiKeys(): Promise<InternalApiKey[]> {
      const { items } = await ctx.call<{ items: InternalApiKeyRead[] }>({ method: "GET", path: "/internal/api-keys", session: null });
      return items.map(internalApiKeyFromWire);
    },

    /** Creates a key set; the returned full key values are shown this once only. */
    async createInternalApiKey(input: InternalApiKeyCreate): Promise<InternalApiKeyFirstView> {
      const wire = await ctx.call<InternalApiKeyCreated>({
        method: "POST",
        path: "/internal/api-keys",
        session: null,
        body: {
          description: input.description,
          expires_at_millis: input.expiresAt.getTime(),
          has_publishable_client_key: input.hasPublishableClientKey,
          has_secret_server_key: input.hasSecretServerKey,
          has_super_secret_admin_key: input.hasSuperSecretAdminKey,
        },
      });
      return internalApiKeyFirstViewFromWire(wire);
    },

    /**
     * The publishable keys of the project's valid key sets, in full, newest first (Latchkey's own route). A
     * publishable key is public, so it can be read again; secret and admin keys are shown only when made.
     */
    async listPublishableClientKeys(): Promise<PublishableClientKey[]> {
      const { items } = await ctx.call<{ items: InternalPublishableClientKey[] }>({ method: "GET", path: "/internal/publishable-client-keys", session: null });
      return items.map(publishableClientKeyFromWire);
    },

    /** Revokes a key set (SPEC.md §4: internal keys are revoked by PATCH with `revoked: true`). */
    async revokeInternalApiKey(id: string): Promise<InternalApiKey> {
      const wire = await ctx.call<InternalApiKeyRead>({ method: "PATCH", path: `/internal/api-keys/${encodeURIComponent(id)}`, body: { revoked: true }, session: null });
      return internalApiKeyFromWire(wire);
    },
  };
}
