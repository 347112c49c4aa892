import { WEBHOOK_PAYLOAD_VERSIONS, type WebhookPayloadVersion } from "@latchkey/core";
import { z } from "zod";

/**
 * The add-endpoint form, checked before it is sent, with the limits the server's Svix-compatible API has
 * (routes/webhooks-svix.ts): an http(s) URL of at most 2048 characters, a description of at most 1024.
 * No event type chosen means every event type (`filterTypes: null`). The payload version is the Stack SDK whose
 * shapes the events carry.
 */
export const endpointForm = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL that should receive the events.")
    .max(2048, "A URL has at most 2048 characters.")
    .refine(
      (value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol),
      "Enter a full http:// or https:// URL, e.g. https://example.com/webhooks.",
    ),
  description: z.string().trim().max(1024, "A description has at most 1024 characters."),
  filterTypes: z.array(z.string()).transform((types) => (types.length ? types : null)),
  payloadVersion: z.enum(WEBHOOK_PAYLOAD_VERSIONS as [WebhookPayloadVersion, ...WebhookPayloadVersion[]]),
});

export type EndpointFormInput = z.input<typeof endpointForm>;
export type EndpointFormValues = z.output<typeof endpointForm>;

/** An endpoint's event filter in words. */
export const describeFilter = (filterTypes: string[] | null) => (filterTypes === null ? "All events" : filterTypes.join(", "));

/** The payload versions by the SDK that reads them (short: a select on a phone is as wide as its longest option). */
export const PAYLOAD_VERSION_LABELS: Record<WebhookPayloadVersion, string> = {
  "2.8.41": "Stack SDK 2.8.41 (default)",
  "2.8.108": "Stack SDK 2.8.108",
};
