import type { Logger } from "pino";
import type { Dialect } from "@latchkey/protocol/dialects";
import type { AppDeps, RequestAuth } from "../services/deps.js";

export type { AccessType, AppDeps, RequestAuth } from "../services/deps.js";

/** Typed Hono context variables, set by the pipeline middleware. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    /** The protocol version the request is answered in (http/dialect.ts). */
    dialect: Dialect;
    /** The request sent headers of both versions; refused once the response headers can say so. */
    mixedDialects: boolean;
    log: Logger;
    auth: RequestAuth | null;
    /** The parsed request body (JSON object, form fields, text), undefined when there is none. */
    body: unknown;
  };
}
