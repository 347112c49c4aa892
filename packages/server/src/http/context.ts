import type { Logger } from "pino";
import type { AppDeps, RequestAuth } from "../services/deps.js";

export type { AccessType, AppDeps, RequestAuth } from "../services/deps.js";

/** Typed Hono context variables, set by the pipeline middleware. */
export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    log: Logger;
    auth: RequestAuth | null;
    /** The parsed request body (JSON object, form fields, text), undefined when there is none. */
    body: unknown;
  };
}
