import type { AdminApp, InternalApiKeyFirstView } from "@latchkey/core";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { expiryDate, type ExpiryChoice } from "../../../components/expiry-field.js";
import { projectKey } from "../../../project-admin.js";
import { NEVER_DAYS } from "../keys/key-sets.js";

/** The project's publishable keys, in full (they are public): the newest is the one the page shows. */
export const publishableKeysKey = (projectId: string) => [...projectKey(projectId), "publishable-keys"] as const;

/**
 * A key set just made for the app, with its secret server key. Kept in the page's memory only (the query
 * cache, never fetched, never stored): the server keeps no copy, so a reload shows it no more.
 */
const newAppKeysKey = (projectId: string) => [...projectKey(projectId), "new-app-keys"] as const;

/**
 * Makes the key set an app starts with: a publishable client key and a secret server key, no admin key. It
 * never expires unless the owner picks a lifetime.
 */
export function createAppKeys(admin: AdminApp, expiry: ExpiryChoice = "never"): Promise<InternalApiKeyFirstView> {
  return admin.createInternalApiKey({
    description: "App keys (Get started)",
    expiresAt: expiryDate(expiry, NEVER_DAYS),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: false,
  });
}

/** Keeps the new key set for the Get started page to show once, and refreshes the list of publishable keys. */
export async function rememberNewAppKeys(queryClient: QueryClient, projectId: string, keySet: InternalApiKeyFirstView) {
  queryClient.setQueryData(newAppKeysKey(projectId), keySet);
  await queryClient.invalidateQueries({ queryKey: publishableKeysKey(projectId) });
}

/** The key set made in this visit, if any, and a way to forget it (once its secret has been copied). */
export function useNewAppKeys(projectId: string) {
  const queryClient = useQueryClient();
  const { data } = useQuery<InternalApiKeyFirstView | null>({
    queryKey: newAppKeysKey(projectId),
    queryFn: () => null,
    enabled: false,
    staleTime: Infinity,
  });
  return { keySet: data ?? null, forget: () => queryClient.setQueryData(newAppKeysKey(projectId), null) };
}
