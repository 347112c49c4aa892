import { randomUUID } from "node:crypto";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { post, signedHeaders } from "./webhook-delivery.js";
import { findEndpoint, openEndpointSecret } from "./webhook-endpoints.js";

/** What a test event's receiver is sent: a type no real event has, and a line saying what it is. */
export const TEST_WEBHOOK_EVENT = { type: "stack.test", data: { message: "A test event from Latchkey: the endpoint receives and verifies webhooks." } };

/**
 * 2.8.108's `sendTestWebhook` (`POST /internal/send-test-webhook`): one POST of a test event to one of the project's
 * endpoints, now, signed and with the endpoint's headers as a delivery is; the answer is its outcome
 * (`{ success }`, or `{ success: false, error_message }` saying what went wrong). Nothing is queued, retried or
 * counted against the endpoint, and a disabled endpoint is tested all the same (that is how one checks it is back).
 */
export async function sendTestWebhook(db: Db, env: Env, projectId: string, endpointId: string): Promise<{ success: boolean; error_message?: string }> {
  const endpoint = await findEndpoint(db, projectId, endpointId);
  if (!endpoint) return { success: false, error_message: `No webhook endpoint with id ${endpointId} in this project.` };
  const secret = openEndpointSecret(env, endpoint.id, { sealed: endpoint.sealed_secret, keyId: endpoint.sealing_key_id });
  if (!secret) return { success: false, error_message: "The endpoint's secret cannot be opened with the server secret (LATCHKEY_SERVER_SECRET changed?)." };
  const body = JSON.stringify(TEST_WEBHOOK_EVENT);
  const headers = { ...endpoint.headers, ...signedHeaders([secret], `msg_test_${randomUUID().replaceAll("-", "")}`, body) };
  try {
    const response = await post(new URL(endpoint.url), headers, body, env.webhooksAllowPrivateTargets, new AbortController().signal);
    if (response.status >= 200 && response.status < 300) return { success: true };
    return { success: false, error_message: `The endpoint answered ${response.status}${response.body ? `: ${response.body}` : ""}` };
  } catch (error) {
    return { success: false, error_message: `The endpoint could not be reached: ${(error as Error).message}` };
  }
}
