import type { ContactChannelRead } from "@latchkey/protocol/schemas";

export interface ContactChannel {
  id: string;
  type: "email";
  value: string;
  isPrimary: boolean;
  isVerified: boolean;
  usedForAuth: boolean;
}

export function contactChannelFromWire(wire: ContactChannelRead): ContactChannel {
  return { id: wire.id, type: wire.type, value: wire.value, isPrimary: wire.is_primary, isVerified: wire.is_verified, usedForAuth: wire.used_for_auth };
}

export interface ContactChannelCreate {
  value: string;
  usedForAuth: boolean;
  isPrimary?: boolean;
}

/** What a user may change about one of their channels (PATCH /contact-channels/me/{id}). */
export interface ContactChannelUpdate {
  value?: string;
  usedForAuth?: boolean;
  /** Making a channel primary makes its address the user's primary email. */
  isPrimary?: boolean;
}

export function contactChannelUpdateToWire(update: ContactChannelUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (update.value !== undefined) body.value = update.value;
  if (update.usedForAuth !== undefined) body.used_for_auth = update.usedForAuth;
  if (update.isPrimary !== undefined) body.is_primary = update.isPrimary;
  return body;
}
