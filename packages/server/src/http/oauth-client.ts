import type { Context } from "hono";
import { PUBLIC_CLIENT_SECRET } from "@latchkey/protocol/dialects";
import { isKeyAllowedInThisMode } from "../env.js";
import { findProjectCheckingKey } from "../services/api-keys.js";
import type { ProjectRow } from "../services/projects.js";
import { keylessClientAllowed } from "./auth.js";
import type { AppEnv } from "./context.js";

/**
 * The client of the OAuth routes (authorize, token): `client_id` names the project (optionally `#<branch>`,
 * only `main` exists), `client_secret` is one of its publishable client keys, or 2.8.108's public sentinel
 * when the project lets clients go without one. Undefined for an unknown project; `keyAccepted` says whether
 * the secret passed, since the routes refuse a bad one with different errors.
 */
export async function oauthClientProject(c: Context<AppEnv>, clientId: string, clientSecret: string): Promise<{ project: ProjectRow; keyAccepted: boolean } | undefined> {
  const { db, caches, env } = c.get("deps");
  const [projectId = "", branchId = "main", ...rest] = clientId.split("#");
  if (rest.length > 0 || branchId !== "main") return undefined;
  const keyless = clientSecret === PUBLIC_CLIENT_SECRET;
  const found = await findProjectCheckingKey(db, caches, projectId, keyless ? undefined : { kind: "publishableClientKey", key: clientSecret });
  if (!found) return undefined;
  const keyAccepted = keyless ? keylessClientAllowed("2.8.108", found.project) : found.keyValid && isKeyAllowedInThisMode(env, clientSecret);
  return { project: found.project, keyAccepted };
}
