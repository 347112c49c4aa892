import { ConfigNormalizationError, getInvalidConfigReason, isPlainObject, normalizeConfig, type ConfigObject, type ConfigOverride } from "./config-format.js";
import { checkValue, configOverrideSchema, schemaAt } from "./config-schema.js";

/**
 * What `PATCH /internal/config/override` answers for a bad `config_override_string` (issue 33): a 400 whose
 * plain text is the reference's, with its prefix saying which stage refused it:
 * - `[ERROR] …`: the override itself (not an object, a malformed key, a key the schema lacks, a value of the
 *   wrong type), e.g. `[ERROR] The key "nonExistentField" is not valid for the schema.`;
 * - `[FORMAT ERROR] …`: the override does not normalize (its dotted keys and values cannot be laid out as a tree);
 * - `[WARNING] …`: the laid-out config breaks a rule of the whole (URLs, ids, ports, money amounts, record keys).
 * Invalid JSON is the bare `Invalid config JSON`, as in the reference.
 */

/** The most a project's stored override may hold, as JSON (issue 33). */
export const MAX_CONFIG_OVERRIDE_BYTES = 5 * 1024 * 1024;

export type OverrideCheck = { ok: true; override: ConfigOverride } | { ok: false; error: string };

export function checkConfigOverrideString(text: string): OverrideCheck {
  const tooLarge = overrideSizeError(text);
  if (tooLarge) return { ok: false, error: tooLarge };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: "Invalid config JSON" };
  }
  return checkConfigOverride(parsed);
}

/** The stage prefix of a refusal (`[ERROR] `, `[FORMAT ERROR] `, `[WARNING] `), for callers that show the bare message. */
export const STAGE_PREFIX = /^\[(?:ERROR|FORMAT ERROR|WARNING)\] /;

export function checkConfigOverride(override: unknown): OverrideCheck {
  const error = overrideError(override);
  if (error) return { ok: false, error: `[ERROR] ${error}` };
  const valid = override as ConfigObject;
  let normalized: ConfigObject;
  try {
    normalized = normalizeConfig(valid, { onDotIntoNonObject: "ignore", onDotIntoMissing: "empty-object" });
  } catch (e) {
    if (e instanceof ConfigNormalizationError) return { ok: false, error: `[FORMAT ERROR] Config is not normalizable. ${e.message}` };
    throw e;
  }
  const warning = checkValue(configOverrideSchema, normalized, "", true);
  if (warning) return { ok: false, error: `[WARNING] ${warning}` };
  return { ok: true, override: valid };
}

/** The reference's checks of an override on its own, key by key, in its wording. */
function overrideError(override: unknown): string | undefined {
  if (typeof override !== "object" || override === null) return "Config override must be a non-null object.";
  if (!isPlainObject(override)) return "Config override must be plain old JavaScript object.";
  const reason = getInvalidConfigReason(override, "override");
  if (reason) return `Invalid config format: ${reason}`;
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const node = schemaAt(configOverrideSchema, key);
    if (!node) return `The key ${JSON.stringify(key)} is not valid for the schema.`;
    const problem = checkValue(node, value, key, false);
    if (problem) return problem;
  }
  return undefined;
}

/** Why an override of this JSON text is too large to store, or undefined. */
export function overrideSizeError(json: string): string | undefined {
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes <= MAX_CONFIG_OVERRIDE_BYTES) return undefined;
  return `[ERROR] The config override is too large: it would be ${bytes} bytes of JSON, and at most ${MAX_CONFIG_OVERRIDE_BYTES} (5 MB) are stored.`;
}
