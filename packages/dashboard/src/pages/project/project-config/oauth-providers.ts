import { OAUTH_PROVIDER_NAMES } from "@latchkey/protocol/oauth-providers";
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/protocol/schemas";
import { z } from "zod";

/** The providers' names as people know them. */
export const PROVIDER_NAMES = OAUTH_PROVIDER_NAMES as Record<OAuthProviderId, string>;
export const PROVIDER_IDS: readonly OAuthProviderId[] = OAUTH_PROVIDER_IDS;

/** A provider entry of the complete config (`auth.oauth.providers.<configId>`), without its write-only secret. */
export interface ProviderEntry {
  configId: string;
  type?: OAuthProviderId;
  isShared?: boolean;
  clientId?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  allowSignIn?: boolean;
}

/** The entry for a provider: the one named after it (what the legacy API writes), else the first of its type. */
export function providerEntry(config: Record<string, unknown>, provider: OAuthProviderId): ProviderEntry | undefined {
  const providers = ((config.auth as { oauth?: { providers?: Record<string, Omit<ProviderEntry, "configId">> } } | undefined)?.oauth?.providers ?? {}) as Record<
    string,
    Omit<ProviderEntry, "configId">
  >;
  const named = providers[provider];
  if (named?.type === provider) return { configId: provider, ...named };
  const found = Object.entries(providers).find(([, entry]) => entry.type === provider);
  return found ? { configId: found[0], ...found[1] } : undefined;
}

export type ProviderMode = "off" | "shared" | "standard";

export function providerMode(entry: ProviderEntry | undefined): ProviderMode {
  if (!entry?.type || !entry.allowSignIn) return "off";
  return entry.isShared ? "shared" : "standard";
}

/** Whether the entry already has the project's own credentials, so an empty secret field keeps the stored one. */
export const hasOwnCredentials = (entry: ProviderEntry | undefined) => entry?.isShared === false && !!entry.clientId;

/** Where the provider sends users back: what an owner registers with it (server: oauth/project-providers.ts). */
export function callbackUrl(baseUrl: string, configId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/api/v1/auth/oauth/callback/${encodeURIComponent(configId)}`;
}

/** The provider form as typed. */
export interface ProviderFormValues {
  mode: ProviderMode;
  clientId: string;
  clientSecret: string;
  microsoftTenantId: string;
  facebookConfigId: string;
}

/** The form's checks; `secretRequired` when there is no stored secret to keep. */
export function providerFormSchema(secretRequired: boolean) {
  return z
    .object({
      mode: z.enum(["off", "shared", "standard"]),
      clientId: z.string().trim(),
      clientSecret: z.string().trim(),
      microsoftTenantId: z.string().trim(),
      facebookConfigId: z.string().trim(),
    })
    .superRefine((values, ctx) => {
      if (values.mode !== "standard") return;
      if (!values.clientId) ctx.addIssue({ code: "custom", path: ["clientId"], message: "Enter the client ID of your OAuth app." });
      if (secretRequired && !values.clientSecret)
        ctx.addIssue({ code: "custom", path: ["clientSecret"], message: "Enter the client secret of your OAuth app." });
    });
}

/**
 * The config override that applies the form to the provider's entry (dotted keys, so the rest of the entry,
 * such as a stored secret, stays). Off keeps the entry and its keys but turns sign-in and connected accounts off.
 */
export function providerOverride(provider: OAuthProviderId, configId: string, values: ProviderFormValues): Record<string, unknown> {
  const key = (field: string) => `auth.oauth.providers.${configId}.${field}`;
  if (values.mode === "off") return { [key("allowSignIn")]: false, [key("allowConnectedAccounts")]: false };
  const change: Record<string, unknown> = {
    [key("type")]: provider,
    [key("isShared")]: values.mode === "shared",
    [key("allowSignIn")]: true,
    [key("allowConnectedAccounts")]: true,
  };
  if (values.mode === "standard") {
    change[key("clientId")] = values.clientId.trim();
    if (values.clientSecret.trim()) change[key("clientSecret")] = values.clientSecret.trim();
    if (provider === "microsoft") change[key("microsoftTenantId")] = values.microsoftTenantId.trim() || null;
    if (provider === "facebook") change[key("facebookConfigId")] = values.facebookConfigId.trim() || null;
  }
  return change;
}
