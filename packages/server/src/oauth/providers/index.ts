// TEMPORARY STUB written by the lead so the server loads while the providers helper works; overwrite freely.
import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import type { InnerOAuthClient, ProviderSettings } from "../inner-client.js";
export function innerOAuthClient(_type: OAuthProviderId, _settings: ProviderSettings): InnerOAuthClient {
  throw new Error("providers not written yet");
}
