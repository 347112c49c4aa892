/**
 * The part of `oidc-provider` (v8) the development provider uses. The package ships no types; these follow
 * its documentation (docs/README.md of panva/node-oidc-provider) for the calls made here, nothing more.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** What an adapter stores for one model instance (token, session, grant, interaction, …). */
  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** The Koa context oidc-provider hands to configuration functions (only what is used here). */
  export interface KoaContextWithOIDC {
    type: string;
    body: unknown;
    status: number;
    set(name: string, value: string): void;
  }

  export interface ErrorOut {
    error: string;
    error_description?: string;
    state?: string;
    iss?: string;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export type Configuration = Record<string, unknown> & {
    adapter?: (modelName: string) => Adapter;
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined> | Account | undefined;
    renderError?: (ctx: KoaContextWithOIDC, out: ErrorOut, error: Error) => Promise<void> | void;
  };

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    /** The authorization request's parameters, after oidc-provider's checks (scope filtered, …). */
    params: Record<string, unknown>;
    session?: { accountId: string; uid: string };
    grantId?: string;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ClientModel {
    clientId: string;
    redirectUriAllowed(redirectUri: string): boolean;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Koa's setting: trust X-Forwarded-Proto and X-Forwarded-Host when building URLs. */
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    /** Stores the interaction's result; returns the URL to send the browser to (the authorization endpoint's resume). */
    interactionResult(req: IncomingMessage, res: ServerResponse, result: InteractionResults, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    readonly Grant: { new (properties: { accountId: string; clientId: string }): Grant };
    readonly Client: { prototype: ClientModel };
    on(event: "server_error", listener: (ctx: unknown, error: Error) => void): this;
  }

  /** oidc-provider's error classes: `statusCode`, the OAuth `error` code, and whether the message may be shown. */
  export interface OIDCProviderError extends Error {
    statusCode: number;
    error: string;
    error_description?: string;
    expose: boolean;
  }

  export const errors: {
    OIDCProviderError: { new (status: number, message: string): OIDCProviderError };
    SessionNotFound: { new (description?: string): OIDCProviderError };
  };

  export default Provider;
}
