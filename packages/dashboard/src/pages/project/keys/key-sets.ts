import type { InternalApiKey, InternalApiKeyCreate } from "@latchkey/core";
import { z } from "zod";
import { expiryChoice, expiryDate, type ExpiryChoice } from "../../../components/expiry-field.js";

const DAY = 24 * 60 * 60 * 1000;

/** A key set that "never" expires lives a hundred years: the protocol has no key set without an expiry. */
export const NEVER_DAYS = 100 * 365;

export const KEY_KINDS = [
  { field: "hasPublishableClientKey", label: "Publishable client key", hint: "For your app's browser code; safe to publish." },
  { field: "hasSecretServerKey", label: "Secret server key", hint: "For your app's server; keep it secret." },
  { field: "hasSuperSecretAdminKey", label: "Super secret admin key", hint: "Full control of the project, like this dashboard; keep it secret." },
] as const;
export type KeyKindField = (typeof KEY_KINDS)[number]["field"];

export interface KeySetFormValues {
  description: string;
  expiry: ExpiryChoice;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
}

/** The create form's checks; the output is what `createInternalApiKey` takes. */
export const keySetForm = z
  .object({
    description: z.string().trim().min(1, "Describe what the keys are for, e.g. “Production web app”."),
    expiry: expiryChoice(),
    hasPublishableClientKey: z.boolean(),
    hasSecretServerKey: z.boolean(),
    hasSuperSecretAdminKey: z.boolean(),
  })
  .refine((values) => values.hasPublishableClientKey || values.hasSecretServerKey || values.hasSuperSecretAdminKey, {
    path: ["hasPublishableClientKey"],
    message: "Choose at least one key.",
  })
  .transform(
    ({ expiry, ...rest }): InternalApiKeyCreate => ({
      ...rest,
      expiresAt: expiryDate(expiry, NEVER_DAYS),
    }),
  );

export type KeySetStatus = "Active" | "Revoked" | "Expired";

export function keySetStatus(keySet: InternalApiKey, now = Date.now()): KeySetStatus {
  if (keySet.manuallyRevokedAt) return "Revoked";
  return keySet.expiresAt.getTime() <= now ? "Expired" : "Active";
}

/** A date for the table; "Never" for the hundred-year expiry. */
export function formatExpiry(date: Date, now = Date.now()): string {
  return date.getTime() - now > 50 * 365 * DAY ? "Never" : date.toLocaleString();
}
