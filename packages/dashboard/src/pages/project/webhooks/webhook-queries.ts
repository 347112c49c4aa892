import type { AdminApp, WebhookEndpointMessage } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { projectKey } from "../../../project-admin.js";

/** The query keys of a project's webhooks, all under one prefix so a change can refresh the lot. */
export const webhookKeys = {
  all: (projectId: string) => [...projectKey(projectId), "webhooks"] as const,
  endpoints: (projectId: string) => [...webhookKeys.all(projectId), "endpoints"] as const,
  endpoint: (projectId: string, endpointId: string) => [...webhookKeys.all(projectId), "endpoint", endpointId] as const,
  secret: (projectId: string, endpointId: string) => [...webhookKeys.all(projectId), "secret", endpointId] as const,
  messages: (projectId: string, endpointId: string) => [...webhookKeys.all(projectId), "messages", endpointId] as const,
  attempts: (projectId: string, endpointId: string, messageId: string) => [...webhookKeys.all(projectId), "attempts", endpointId, messageId] as const,
  eventTypes: (projectId: string) => [...webhookKeys.all(projectId), "event-types"] as const,
};

/** The event types the server sends (they never change while the page is open). */
export function useWebhookEventTypes(projectId: string, admin: AdminApp) {
  return useQuery({
    queryKey: webhookKeys.eventTypes(projectId),
    queryFn: () => admin.listWebhookEventTypes(),
    staleTime: Infinity,
  });
}

/**
 * A delivery about to change: being sent, or due within seconds (a retry hours away is not worth watching
 * closely). The page reads it again soon to show how it ended.
 */
export const isAboutToChange = (message: WebhookEndpointMessage) =>
  message.status === "sending" || (message.status === "pending" && (message.nextAttemptAt === null || message.nextAttemptAt.getTime() - Date.now() < 10_000));

/**
 * The endpoint's latest deliveries. Read every second while one is about to change, and every 10 seconds
 * otherwise, so new events show up without a reload.
 */
export function useEndpointMessages(projectId: string, admin: AdminApp, endpointId: string) {
  return useQuery({
    queryKey: webhookKeys.messages(projectId, endpointId),
    queryFn: () => admin.listWebhookEndpointMessages(endpointId, { limit: 50 }),
    refetchInterval: (query) => (query.state.data?.some(isAboutToChange) ? 1_000 : 10_000),
  });
}

/** Refreshes what a delivery's change affects: the deliveries list and their attempts. */
export function useRefreshDeliveries(projectId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: webhookKeys.messages(projectId, endpointId),
      }),
      queryClient.invalidateQueries({
        queryKey: [...webhookKeys.all(projectId), "attempts", endpointId],
      }),
    ]);
}
