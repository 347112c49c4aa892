import { OAUTH_PROVIDER_IDS, isValidEmail, trustedDomainError } from "@latchkey/protocol/schemas";

/**
 * The shape of a project's config, as data: which keys an override may set and what values they take.
 * Checking an override against it follows the protocol: an unknown key, a value of the wrong type,
 * a value outside an enumeration or an object with unknown properties is rejected, with the protocol's
 * wording. `refine` adds Latchkey's own semantic checks (URLs, ports, ids) on top.
 */

type Refine<T> = (value: T, path: string) => string | undefined;

export interface KeyRule {
  /** Whether `key` may name an entry of the record (used for dotted paths and, when strict, inside values). */
  test: (key: string) => boolean;
  /** Record keys must be UUIDs; checked even inside values. */
  uuid?: boolean;
}

export type SchemaNode =
  | { kind: "string"; oneOf?: readonly string[]; uuid?: boolean; refine?: Refine<string> }
  | { kind: "number"; refine?: Refine<number> }
  | { kind: "boolean"; refine?: Refine<boolean> }
  | { kind: "mixed"; refine?: Refine<unknown> }
  | { kind: "object"; fields: Record<string, SchemaNode>; refine?: Refine<Record<string, unknown>> }
  | { kind: "record"; key: KeyRule; value: SchemaNode }
  | { kind: "tuple"; items: readonly SchemaNode[] }
  | { kind: "union"; items: readonly SchemaNode[] };

const str = (extra: Omit<Extract<SchemaNode, { kind: "string" }>, "kind"> = {}): SchemaNode => ({ kind: "string", ...extra });
const num = (refine?: Refine<number>): SchemaNode => (refine ? { kind: "number", refine } : { kind: "number" });
const bool = (refine?: Refine<boolean>): SchemaNode => (refine ? { kind: "boolean", refine } : { kind: "boolean" });
const obj = (fields: Record<string, SchemaNode>, refine?: Refine<Record<string, unknown>>): SchemaNode =>
  refine ? { kind: "object", fields, refine } : { kind: "object", fields };
const record = (key: KeyRule, value: SchemaNode): SchemaNode => ({ kind: "record", key, value });
const union = (...items: SchemaNode[]): SchemaNode => ({ kind: "union", items });
const tuple = (...items: SchemaNode[]): SchemaNode => ({ kind: "tuple", items });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PERMISSION_ID = /^\$?[a-z0-9_:]+$/;
const CUSTOM_PERMISSION_ID = /^[a-z0-9_:]+$/;
const USER_SPECIFIED_ID = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;

const permissionKey: KeyRule = { test: (k) => PERMISSION_ID.test(k) };
const customPermissionKey: KeyRule = { test: (k) => CUSTOM_PERMISSION_ID.test(k) };
const userSpecifiedKey: KeyRule = { test: (k) => k.length <= 63 && USER_SPECIFIED_ID.test(k) };
const uuidKey: KeyRule = { test: (k) => UUID.test(k), uuid: true };

const maxLength = (max: number): Refine<string> => (v, path) => (v.length > max ? `${path} must be at most ${max} characters` : undefined);
const nonEmpty: Refine<string> = (v, path) => (v === "" ? `${path} must not be empty` : undefined);
const mustBe = (expected: boolean): Refine<boolean> => (v, path) => (v === expected ? undefined : `${path} must be ${String(expected)}`);
const all = <T>(...refines: Refine<T>[]): Refine<T> => (v, path) => {
  for (const refine of refines) {
    const problem = refine(v, path);
    if (problem) return problem;
  }
  return undefined;
};

const CURRENCIES: readonly { code: string; decimals: number }[] = [
  { code: "USD", decimals: 2 }, { code: "EUR", decimals: 2 }, { code: "GBP", decimals: 2 },
  { code: "JPY", decimals: 0 }, { code: "INR", decimals: 2 }, { code: "AUD", decimals: 2 }, { code: "CAD", decimals: 2 },
];

/** SPEC.md §5 money rules. */
const moneyAmount = (currency: { code: string; decimals: number }): Refine<string> => (value) => {
  const match = /^([0-9]+)(\.([0-9]+))?$/.exec(value);
  if (!match) return "Money amount must be in the format of <number> or <number>.<number>";
  const [, whole = "", , decimals] = match;
  if (decimals && decimals.length > currency.decimals) return `Too many decimals; ${currency.code} only has ${currency.decimals} decimals`;
  if (whole !== "0" && whole.startsWith("0")) return "Money amount must not have leading zeros";
  return undefined;
};

const dayInterval = tuple(num((v, p) => (Number.isInteger(v) && v >= 0 ? undefined : `${p} must be a non-negative integer`)), str({ oneOf: ["day", "week", "month", "year"] }));
const dayIntervalOrNever = union(dayInterval, str({ oneOf: ["never"] }));

// "At least one currency is required" is checked where prices are used: an override may set a
// price's amounts and its interval under separate keys.
const price = obj({
  ...Object.fromEntries(CURRENCIES.map((c) => [c.code, str({ refine: moneyAmount(c) })])),
  interval: dayInterval,
  serverOnly: bool(),
  freeTrial: dayInterval,
});

const customerType = str({ oneOf: ["user", "team", "custom"] });

const offer = obj({
  displayName: str(),
  groupId: str({ refine: (v, p) => (USER_SPECIFIED_ID.test(v) ? undefined : `${p} must be a valid id`) }),
  isAddOnTo: union(bool(mustBe(false)), record(userSpecifiedKey, bool(mustBe(true)))),
  customerType,
  freeTrial: dayInterval,
  serverOnly: bool(),
  stackable: bool(),
  prices: union(str({ oneOf: ["include-by-default"] }), record(userSpecifiedKey, price)),
  includedItems: record(userSpecifiedKey, obj({
    quantity: num(),
    repeat: dayIntervalOrNever,
    expires: str({ oneOf: ["never", "when-purchase-expires", "when-repeated"] }),
  })),
});

const trustedDomainBaseUrl: Refine<string> = (value, path) => {
  const reason = trustedDomainError(value);
  return reason ? `${path} ${reason}` : maxLength(300)(value, path);
};

const handlerPath: Refine<string> = (value, path) =>
  value.startsWith("/") ? maxLength(300)(value, path) : "Handler path must start with /";

const port: Refine<number> = (v, path) => {
  if (v < 0) return `${path} must be greater than or equal to 0`;
  if (v > 65535) return `${path} must be less than or equal to 65535`;
  return Number.isInteger(v) ? undefined : `${path} must be an integer`;
};

const senderEmail: Refine<string> = (v, path) => nonEmpty(v, path) ?? (isValidEmail(v) ? undefined : `${path} must be a valid email`);

/**
 * What an environment-level override may set (the level `PATCH /internal/config/override` writes).
 * `sourceOfTruth` exists in the rendered config but can no longer be overridden at this level.
 */
export const configOverrideSchema: SchemaNode = obj({
  rbac: obj({
    permissions: record(customPermissionKey, obj({
      description: str(),
      scope: str({ oneOf: ["team", "project"] }),
      containedPermissionIds: record(permissionKey, bool(mustBe(true))),
    })),
    defaultPermissions: obj({
      teamCreator: record(permissionKey, bool(mustBe(true))),
      teamMember: record(permissionKey, bool(mustBe(true))),
      signUp: record(permissionKey, bool(mustBe(true))),
    }),
  }),
  teams: obj({ createPersonalTeamOnSignUp: bool(), allowClientTeamCreation: bool() }),
  users: obj({ allowClientUserDeletion: bool() }),
  // Newer protocol (2.8.108): users with an unverified primary email are restricted. Not among the rendered
  // defaults (project-config.ts), so the older protocol's config reads as it always did.
  onboarding: obj({ requireEmailVerification: bool() }),
  // Newer protocol (2.8.108): client requests without a publishable key are refused only when this is set.
  project: obj({ requirePublishableClientKey: bool() }),
  apiKeys: obj({ enabled: obj({ team: bool(), user: bool() }) }),
  domains: obj({
    allowLocalhost: bool(),
    trustedDomains: record(userSpecifiedKey, obj({
      baseUrl: str({ refine: trustedDomainBaseUrl }),
      handlerPath: str({ refine: handlerPath }),
    })),
  }),
  auth: obj({
    allowSignUp: bool(),
    password: obj({ allowSignIn: bool() }),
    otp: obj({ allowSignIn: bool() }),
    passkey: obj({ allowSignIn: bool() }),
    oauth: obj({
      accountMergeStrategy: str({ oneOf: ["link_method", "raise_error", "allow_duplicates"] }),
      providers: record(permissionKey, obj({
        type: str({ oneOf: OAUTH_PROVIDER_IDS }),
        isShared: bool(),
        clientId: str(),
        clientSecret: str(),
        facebookConfigId: str(),
        microsoftTenantId: str(),
        allowSignIn: bool(),
        allowConnectedAccounts: bool(),
      })),
    }),
  }),
  emails: obj({
    selectedThemeId: str(),
    themes: record(uuidKey, obj({ displayName: str(), tsxSource: str() })),
    templates: record(uuidKey, obj({
      displayName: str(),
      tsxSource: str(),
      themeId: { kind: "mixed", refine: (v, p) => (v === false || (typeof v === "string" && UUID.test(v)) ? undefined : `${p} must be a theme id or false`) },
    })),
    server: obj({
      isShared: bool(),
      provider: str({ oneOf: ["resend", "smtp"] }),
      host: str({ refine: nonEmpty }),
      port: num(port),
      username: str({ refine: nonEmpty }),
      password: str({ refine: all(nonEmpty, maxLength(70)) }),
      senderName: str({ refine: nonEmpty }),
      senderEmail: str({ refine: senderEmail }),
    }),
  }),
  payments: obj({
    autoPay: obj({ interval: dayInterval }),
    groups: record(userSpecifiedKey, obj({ displayName: str() })),
    offers: record(userSpecifiedKey, offer),
    items: record(userSpecifiedKey, obj({ displayName: str(), customerType })),
  }),
  dataVault: obj({ stores: record(userSpecifiedKey, obj({ displayName: str() })) }),
  workflows: obj({
    availableWorkflows: record(userSpecifiedKey, obj({ displayName: str(), tsSource: str(), enabled: bool() })),
  }),
});

/** The node a (possibly dotted) override key addresses, or undefined when the key is not in the schema. */
export function schemaAt(schema: SchemaNode, dottedKey: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = schema;
  for (const segment of dottedKey.split(".")) {
    node = childOf(node, segment);
    if (!node) return undefined;
  }
  return node;
}

function childOf(node: SchemaNode, segment: string): SchemaNode | undefined {
  switch (node.kind) {
    case "object":
      return Object.prototype.hasOwnProperty.call(node.fields, segment) ? node.fields[segment] : undefined;
    case "record":
      return node.key.test(segment) ? node.value : undefined;
    case "union": {
      const children = node.items.map((item) => childOf(item, segment)).filter((c): c is SchemaNode => c !== undefined);
      if (children.length === 0) return undefined;
      return children.length === 1 ? children[0] : union(...children);
    }
    default:
      return undefined;
  }
}

/**
 * The first problem with `value` at `path`, in the protocol's validator wording, or undefined.
 * `null` is accepted anywhere (it removes the key). With `strict`, `refine` checks and record key
 * rules apply too.
 */
export function checkValue(node: SchemaNode, value: unknown, path: string, strict: boolean, castFrom?: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const notType = (type: string) => notTypeMessage(path, type, value, castFrom);
  switch (node.kind) {
    case "string":
      if (typeof value !== "string") return notType("string");
      if (node.oneOf && !node.oneOf.includes(value)) return `${path} must be one of the following values: ${node.oneOf.join(", ")}`;
      if (node.uuid && !UUID.test(value)) return `${path} must be a valid UUID`;
      return strict ? node.refine?.(value, path) : undefined;
    case "number":
      if (typeof value !== "number" || Number.isNaN(value)) return notType("number");
      return strict ? node.refine?.(value, path) : undefined;
    case "boolean":
      if (typeof value !== "boolean") return notType("boolean");
      return strict ? node.refine?.(value, path) : undefined;
    case "mixed":
      return strict ? node.refine?.(value, path) : undefined;
    case "tuple": {
      if (!Array.isArray(value)) return notType("tuple");
      if (value.length !== node.items.length) {
        const which = value.length < node.items.length ? "few" : "many";
        return `${path} tuple value has too ${which} items, expected a length of ${node.items.length} but got ${value.length} for value: \`${printValue(value)}\``;
      }
      for (const [index, item] of node.items.entries()) {
        const problem = checkValue(item, value[index], `${path}[${index}]`, strict);
        if (problem) return problem;
      }
      return undefined;
    }
    case "object": {
      if (!isObjectValue(value)) return notType("object");
      const unknown = Object.keys(value).filter((k) => !Object.prototype.hasOwnProperty.call(node.fields, k));
      if (unknown.length > 0) return `${path || "Object"} contains unknown properties: ${unknown.join(", ")}`;
      for (const [key, field] of Object.entries(node.fields)) {
        const problem = checkValue(field, Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined, join(path, key), strict);
        if (problem) return problem;
      }
      return strict ? node.refine?.(value, path) : undefined;
    }
    case "record": {
      if (!isObjectValue(value)) return notType("object");
      for (const [key, item] of Object.entries(value)) {
        if (node.key.uuid && !UUID.test(key)) return `${path} must be a valid UUID`;
        if (strict && !node.key.test(key)) return `The key ${JSON.stringify(join(path, key))} is not valid for the schema.`;
        // The protocol's validator reports problems inside a record entry at the record's path, with
        // the record as the "cast from" value; Latchkey's own (strict) checks name the entry.
        const problem = strict
          ? checkValue(node.value, item, join(path, key), strict)
          : checkValue(node.value, item, path, strict, value);
        if (problem) return problem;
      }
      return undefined;
    }
    case "union": {
      const problems: string[] = [];
      for (const item of node.items) {
        const problem = checkValue(item, value, path, strict, castFrom);
        if (!problem) return undefined;
        problems.push(problem);
      }
      const variants = problems.map((p, i) => `  Schema ${i}:\n${p.split("\n").map((l) => `    ${l}`).join("\n")}`);
      return `${path} is not matched by any of the provided schemas:\n${variants.join("\n")}`;
    }
  }
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function notTypeMessage(path: string, type: string, value: unknown, castFrom: unknown): string {
  const cast = castFrom !== undefined && castFrom !== null && castFrom !== value ? ` (cast from the value \`${printValue(castFrom)}\`).` : ".";
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${cast}`;
}

/** Prints a value the way the protocol's validator does in its messages. */
function printValue(value: unknown): string {
  const simple = printSimpleValue(value);
  if (simple !== undefined) return simple;
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    return printSimpleValue(this[key]) ?? v;
  }, 2);
}

function printSimpleValue(value: unknown): string | undefined {
  if (value === null || value === undefined || typeof value === "boolean") return String(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string") return `"${value}"`;
  return undefined;
}
