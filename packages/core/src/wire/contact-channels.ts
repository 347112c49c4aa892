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
