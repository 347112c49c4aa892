/**
 * Webhook endpoints as the Svix-compatible API answers them (camelCase already: that API is Svix's, not the
 * Stack protocol's), with dates as Date.
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  disabled: boolean;
  /** Event types the endpoint receives; null: every type. */
  filterTypes: string[] | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookEndpointCreate {
  url: string;
  description?: string;
  filterTypes?: string[];
}

export interface WebhookEndpointWire {
  id: string;
  url: string;
  description: string;
  disabled: boolean;
  filterTypes: string[] | null;
  createdAt: string;
  updatedAt: string;
}

export function webhookEndpointFromWire(wire: WebhookEndpointWire): WebhookEndpoint {
  return {
    id: wire.id,
    url: wire.url,
    description: wire.description,
    disabled: wire.disabled,
    filterTypes: wire.filterTypes,
    createdAt: new Date(wire.createdAt),
    updatedAt: new Date(wire.updatedAt),
  };
}
