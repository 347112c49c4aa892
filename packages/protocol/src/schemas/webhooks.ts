import { z } from "zod";

/** `POST /webhooks/svix-token` (admin): a token for the Svix-compatible webhook API, whose app id is the project id. */
export const svixTokenCreateBody = z.strictObject({});
export const svixTokenRead = z.strictObject({ token: z.string() });

/** `POST /internal/send-test-webhook` (2.8.108, admin): one test event to one endpoint, and how it went. */
export const sendTestWebhookBody = z.strictObject({ endpoint_id: z.string() });
export const sendTestWebhookResponse = z.strictObject({ success: z.boolean(), error_message: z.string().optional() });
