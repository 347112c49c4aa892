import { HttpStatusError } from "../http/errors.js";
import type { ApiRequest } from "../http/http-client.js";
import {
  metadataWithPayloadVersion,
  svixErrorMessage,
  webhookAttemptFromWire,
  webhookEndpointFromWire,
  webhookEndpointMessageFromWire,
  webhookEventTypeFromWire,
  type SvixErrorWire,
  type WebhookAttempt,
  type WebhookAttemptWire,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEndpointMessage,
  type WebhookEndpointMessageWire,
  type WebhookEndpointUpdate,
  type WebhookEndpointWire,
  type WebhookEventType,
  type WebhookEventTypeWire,
} from "../wire/webhooks.js";
import type { AppContext } from "./app-context.js";

/**
 * A refusal of the Svix-compatible API, with its message in words (`error.message`) and Svix's error code; the
 * status and raw body stay readable as on any HttpStatusError.
 */
export class WebhookApiError extends HttpStatusError {
  readonly code: string;

  constructor(status: number, body: string, url: string, parsed: SvixErrorWire) {
    super(status, body, url);
    this.name = "WebhookApiError";
    this.code = parsed.code;
    this.message = svixErrorMessage(parsed);
  }
}

function readableSvixError(error: unknown): unknown {
  if (!(error instanceof HttpStatusError)) return error;
  try {
    const parsed = JSON.parse(error.body) as Partial<SvixErrorWire>;
    if (typeof parsed.code === "string" && parsed.detail !== undefined)
      return new WebhookApiError(error.status, error.body, error.url, parsed as SvixErrorWire);
  } catch {
    // Not Svix's error shape (a proxy's page, say): the error as it was.
  }
  return error;
}

interface Page<T> {
  data: T[];
  iterator: string | null;
  done: boolean;
}

// Tokens live a day (server: SVIX_TOKEN_LIFETIME_SECONDS); one is reused for an hour, so a page's calls need one each.
const TOKEN_REUSE_MS = 60 * 60 * 1000;

/**
 * An admin app's webhook endpoints. They are managed through the server's Svix-compatible API (the project is
 * the Svix app), authorised by a short-lived token from `POST /webhooks/svix-token`; the same calls work
 * against a real Svix server behind Latchkey.
 */
export function adminWebhookActions(ctx: AppContext) {
  let cachedToken: { token: Promise<string>; at: number } | null = null;

  function svixToken(): Promise<string> {
    if (!cachedToken || ctx.clock.now() - cachedToken.at > TOKEN_REUSE_MS) {
      const token = ctx
        .call<{ token: string }>({
          method: "POST",
          path: "/webhooks/svix-token",
          body: {},
          session: null,
        })
        .then((answer) => answer.token);
      const entry = { token, at: ctx.clock.now() };
      cachedToken = entry;
      // A failed request is not kept: the next call asks again.
      token.catch(() => cachedToken === entry && (cachedToken = null));
    }
    return cachedToken.token;
  }

  /** A call to the Svix-compatible API; `path` is under `/api/v1` of that API (app paths: use `app`). */
  async function svixApi<T>(method: ApiRequest["method"], path: string, body?: unknown): Promise<T> {
    const send = async () =>
      ctx.call<T>({
        method,
        path: `/webhooks/svix/api/v1${path}`,
        body,
        session: null,
        headers: { authorization: `Bearer ${await svixToken()}` },
      });
    try {
      return await send();
    } catch (error) {
      // A reused token the server no longer takes (its secret was rotated): once more with a new one.
      if (error instanceof HttpStatusError && error.status === 401 && cachedToken) {
        cachedToken = null;
        return send().catch((again: unknown) => Promise.reject(readableSvixError(again)));
      }
      throw readableSvixError(error);
    }
  }

  const svix = <T>(method: ApiRequest["method"], path: string, body?: unknown) => svixApi<T>(method, `/app/${encodeURIComponent(ctx.projectId)}${path}`, body);
  const endpointPath = (id: string) => `/endpoint/${encodeURIComponent(id)}`;

  /** Every item of a paged list (Svix's iterator), oldest page first. */
  async function everyPage<T>(read: (iterator: string | null) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    let iterator: string | null = null;
    for (;;) {
      const page: Page<T> = await read(iterator);
      items.push(...page.data);
      if (page.done || !page.iterator) return items;
      iterator = page.iterator;
    }
  }
  const iteratorQuery = (iterator: string | null) => (iterator ? `&iterator=${encodeURIComponent(iterator)}` : "");

  return {
    /** Every endpoint of the project, oldest first. */
    async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
      const endpoints = await everyPage((iterator) => svix<Page<WebhookEndpointWire>>("GET", `/endpoint?limit=250${iteratorQuery(iterator)}`));
      return endpoints.map(webhookEndpointFromWire);
    },

    async getWebhookEndpoint(id: string): Promise<WebhookEndpoint> {
      return webhookEndpointFromWire(await svix("GET", endpointPath(id)));
    },

    /** Adds an endpoint; its signing secret is read with `getWebhookEndpointSecret`. */
    async createWebhookEndpoint(input: WebhookEndpointCreate): Promise<WebhookEndpoint> {
      return webhookEndpointFromWire(
        await svix("POST", "/endpoint", {
          url: input.url,
          description: input.description,
          filterTypes: input.filterTypes,
          metadata: metadataWithPayloadVersion({}, input.payloadVersion ?? "2.8.41"),
        }),
      );
    },

    /**
     * Changes an endpoint (e.g. `{ disabled: true }`: it gets no messages until enabled again). A new
     * `payloadVersion` is written into the endpoint's metadata, its other entries kept (read first: Svix replaces
     * metadata whole).
     */
    async updateWebhookEndpoint(id: string, update: WebhookEndpointUpdate): Promise<WebhookEndpoint> {
      const { payloadVersion, ...fields } = update;
      const metadata =
        payloadVersion === undefined ? undefined : metadataWithPayloadVersion((await svix<WebhookEndpointWire>("GET", endpointPath(id))).metadata ?? {}, payloadVersion);
      return webhookEndpointFromWire(await svix("PATCH", endpointPath(id), { ...fields, ...(metadata && { metadata }) }));
    },

    async deleteWebhookEndpoint(id: string): Promise<void> {
      await svix("DELETE", endpointPath(id));
    },

    /** The `whsec_…` secret a receiver verifies deliveries with (the `svix` or `standardwebhooks` packages). */
    async getWebhookEndpointSecret(id: string): Promise<string> {
      return (await svix<{ key: string }>("GET", `${endpointPath(id)}/secret`)).key;
    },

    /**
     * Gives the endpoint a new signing secret (read it with `getWebhookEndpointSecret`). Deliveries are signed
     * with the old one too for 24 hours, so receivers can switch over without losing any.
     */
    async rotateWebhookEndpointSecret(id: string): Promise<void> {
      await svix("POST", `${endpointPath(id)}/secret/rotate`, {});
    },

    /** The event types the server sends, by name, to filter endpoints by and to send test events of. */
    async listWebhookEventTypes(): Promise<WebhookEventType[]> {
      const types = await everyPage((iterator) => svixApi<Page<WebhookEventTypeWire>>("GET", `/event-type?limit=250${iteratorQuery(iterator)}`));
      return types.map(webhookEventTypeFromWire);
    },

    /** Sends the endpoint an example event of the type (default `user.created`), signed like a real one. */
    async sendTestWebhookEvent(endpointId: string, eventType = "user.created"): Promise<{ messageId: string }> {
      const message = await svix<{ id: string }>("POST", `${endpointPath(endpointId)}/send-example`, { eventType });
      return { messageId: message.id };
    },

    /** The latest messages sent to the endpoint (newest first, at most `limit`, 50 by default), each with its delivery's state. */
    async listWebhookEndpointMessages(endpointId: string, options: { limit?: number } = {}): Promise<WebhookEndpointMessage[]> {
      const page = await svix<Page<WebhookEndpointMessageWire>>("GET", `${endpointPath(endpointId)}/msg?limit=${options.limit ?? 50}&with_content=true`);
      return page.data.map(webhookEndpointMessageFromWire);
    },

    /** Every attempt at delivering the message to the endpoint, newest first. */
    async listWebhookMessageAttempts(messageId: string, endpointId: string): Promise<WebhookAttempt[]> {
      const attempts = await everyPage((iterator) =>
        svix<Page<WebhookAttemptWire>>(
          "GET",
          `/attempt/msg/${encodeURIComponent(messageId)}?endpoint_id=${encodeURIComponent(endpointId)}&limit=250${iteratorQuery(iterator)}`,
        ),
      );
      return attempts.map(webhookAttemptFromWire);
    },

    /** Sends the message to the endpoint again, now, whatever its delivery's state (e.g. after fixing a receiver). */
    async resendWebhookMessage(messageId: string, endpointId: string): Promise<void> {
      await svix("POST", `/msg/${encodeURIComponent(messageId)}${endpointPath(endpointId)}/resend`, {});
    },
  };
}
