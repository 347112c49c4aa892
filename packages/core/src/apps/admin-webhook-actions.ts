import type { ApiRequest } from "../http/http-client.js";
import { webhookEndpointFromWire, type WebhookEndpoint, type WebhookEndpointCreate, type WebhookEndpointWire } from "../wire/webhooks.js";
import type { AppContext } from "./app-context.js";

/**
 * An admin app's webhook endpoints. They are managed through the server's Svix-compatible API (the project is
 * the Svix app), authorised by a short-lived token from `POST /webhooks/svix-token`; the same calls work
 * against a real Svix server behind Latchkey.
 */
export function adminWebhookActions(ctx: AppContext) {
  async function svix<T>(method: ApiRequest["method"], path: string, body?: unknown): Promise<T> {
    const { token } = await ctx.call<{ token: string }>({ method: "POST", path: "/webhooks/svix-token", body: {}, session: null });
    return ctx.call<T>({
      method,
      path: `/webhooks/svix/api/v1/app/${encodeURIComponent(ctx.projectId)}${path}`,
      body,
      session: null,
      headers: { authorization: `Bearer ${token}` },
    });
  }

  return {
    /** Every endpoint of the project, oldest first. */
    async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
      const endpoints: WebhookEndpoint[] = [];
      let iterator: string | null = null;
      for (;;) {
        const query: string = iterator ? `&iterator=${encodeURIComponent(iterator)}` : "";
        const page: { data: WebhookEndpointWire[]; iterator: string | null; done: boolean } = await svix("GET", `/endpoint?limit=250${query}`);
        endpoints.push(...page.data.map(webhookEndpointFromWire));
        if (page.done || !page.iterator) return endpoints;
        iterator = page.iterator;
      }
    },

    /** Adds an endpoint; its signing secret is read with `getWebhookEndpointSecret`. */
    async createWebhookEndpoint(input: WebhookEndpointCreate): Promise<WebhookEndpoint> {
      return webhookEndpointFromWire(await svix("POST", "/endpoint", { url: input.url, description: input.description, filterTypes: input.filterTypes }));
    },

    async deleteWebhookEndpoint(id: string): Promise<void> {
      await svix("DELETE", `/endpoint/${encodeURIComponent(id)}`);
    },

    /** The `whsec_…` secret a receiver verifies deliveries with (the `svix` or `standardwebhooks` packages). */
    async getWebhookEndpointSecret(id: string): Promise<string> {
      return (await svix<{ key: string }>("GET", `/endpoint/${encodeURIComponent(id)}/secret`)).key;
    },

    /** Sends the endpoint an example event of the type (default `user.created`), signed like a real one. */
    async sendTestWebhookEvent(endpointId: string, eventType = "user.created"): Promise<{ messageId: string }> {
      const message = await svix<{ id: string }>("POST", `/endpoint/${encodeURIComponent(endpointId)}/send-example`, { eventType });
      return { messageId: message.id };
    },
  };
}
