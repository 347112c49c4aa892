/**
 * The base of every known error: an error whose code, HTTP status, message and `details` are part of the
 * wire protocol (Stack Auth REST API v1). Each concrete error is declared once with `defineKnownError`, so
 * the status is bound to the code here and never chosen where the error is thrown (STYLE §5).
 */

export type KnownErrorDetails = Record<string, unknown>;

/** The JSON body of a known-error response, in the key order the protocol emits. */
export interface KnownErrorJson {
  code: string;
  details?: KnownErrorDetails;
  error: string;
}

/**
 * Codes of errors rebuilt from a body whose code this catalogue does not know (a newer server). Kept off the
 * instance so that `code` stays a read-only accessor like on every other known error.
 */
const wireCodes = new WeakMap<KnownError, string>();

export class KnownError extends Error {
  /** Overridden by every class `defineKnownError` makes. */
  static readonly code: string = "KNOWN_ERROR";
  /** Turns a body's `details` back into constructor arguments (client side). */
  static argsFromDetails(details: unknown): unknown[] {
    return [details];
  }

  readonly statusCode: number;
  readonly details: KnownErrorDetails | undefined;

  constructor(statusCode: number, message: string, details?: KnownErrorDetails) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
    this.name = `KnownError<${(new.target as typeof KnownError).code}>`;
  }

  get code(): string {
    return wireCodes.get(this) ?? (this.constructor as typeof KnownError).code;
  }

  toJSON(): KnownErrorJson {
    // `details` only when truthy, as the protocol does: an error built without details has no `details` key.
    return { code: this.code, ...(this.details ? { details: this.details } : {}), error: this.message };
  }
}

/** An instance of a class made by `defineKnownError`, with `details` typed by its declaration. */
export type KnownErrorInstance<D = KnownErrorDetails | undefined> = KnownError & { readonly details: D };

export interface KnownErrorClass<A extends unknown[], D = KnownErrorDetails | undefined> {
  new (...args: A): KnownErrorInstance<D>;
  readonly code: string;
  readonly status: number;
  argsFromDetails(details: unknown): unknown[];
}

export interface KnownErrorDefinition<A extends unknown[] | [], D = undefined> {
  /** HTTP status bound to the code. */
  status: number;
  /** The more general error this one refines (checks with `instanceof` on the parent match it too). */
  parent?: KnownErrorClass<any, any>;
  /** Message and details for the given arguments. */
  build: (...args: A) => { message: string; details?: D };
  /** Constructor arguments recovered from a response body's `details` (client side). */
  fromDetails: (details: any) => NoInfer<A>;
  /**
   * Message and details in a later protocol version, where that version words the same error differently
   * (packages/protocol/src/dialects.ts); `build` is the 2.8.41 form. Built from the same arguments.
   */
  variants?: Partial<Record<"2.8.108", (...args: A) => { message: string; details?: unknown }>>;
}

/** Arguments each error with variants was built from, so that a variant can be built from them later. */
const variantArgs = new WeakMap<KnownError, { variants: KnownErrorDefinition<any, any>["variants"] & {}; args: unknown[] }>();

/**
 * The error's message and details in the given version's wording: the variant its declaration has for that
 * version, else its own. Used by dialects.ts only.
 */
export function knownErrorVariant(error: KnownError, version: "2.8.108"): { message: string; details: KnownErrorDetails | undefined } {
  const built = variantArgs.get(error);
  const build = built?.variants[version];
  if (!built || !build) return { message: error.message, details: error.details };
  const { message, details } = build(...built.args);
  return { message, details: details as KnownErrorDetails | undefined };
}

type KnownErrorBase = new (status: number, message: string, details?: KnownErrorDetails) => KnownError;

/**
 * Every class declared so far, by code: what a client can rebuild a response body as. Declaring registers,
 * and the declaring functions are marked free of side effects, so a browser bundle keeps (and registers)
 * only the errors its code refers to; any other code is rebuilt as a plain `KnownError` with that code,
 * message and details. The server imports the whole catalogue, so it knows every class.
 */
const classesByCode = new Map<string, KnownErrorClass<any, any>>();

/**
 * Declares one known error; the returned class is thrown on the server and rebuilt on the client.
 * (`A extends unknown[] | []` makes TypeScript read the array literals `fromDetails` returns as tuples.)
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineKnownError<A extends unknown[] | [], D = undefined>(
  code: string,
  definition: KnownErrorDefinition<A, D>,
): KnownErrorClass<A, D> {
  const Parent = (definition.parent ?? KnownError) as unknown as KnownErrorBase;
  const Defined = class extends Parent {
    static readonly code = code;
    static readonly status = definition.status;
    static argsFromDetails(details: unknown): unknown[] {
      return definition.fromDetails(details);
    }
    constructor(...args: A) {
      const { message, details } = definition.build(...args);
      super(definition.status, message, details as KnownErrorDetails | undefined);
      if (definition.variants) variantArgs.set(this, { variants: definition.variants, args });
    }
  };
  Object.defineProperty(Defined, "name", { value: code });
  classesByCode.set(code, Defined as unknown as KnownErrorClass<A, D>);
  return Defined as unknown as KnownErrorClass<A, D>;
}

/**
 * Declares a family of errors that is never thrown itself but groups concrete ones, so a client can catch
 * the whole family (e.g. every invalid-access-token error). Constructed directly it takes status, message
 * and details, which is also how a client rebuilds it from a body.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineKnownErrorFamily(code: string, parent?: KnownErrorClass<any, any>): KnownErrorClass<[number, string, KnownErrorDetails?]> {
  const Parent = (parent ?? KnownError) as unknown as typeof KnownError;
  const Family = class extends Parent {
    static override readonly code: string = code;
    // A family binds no status of its own: its members do, and a directly built family takes one.
    static readonly status: number = 400;
  };
  Object.defineProperty(Family, "name", { value: code });
  classesByCode.set(code, Family as unknown as KnownErrorClass<any, any>);
  return Family as unknown as KnownErrorClass<[number, string, KnownErrorDetails?]>;
}

/**
 * Recreates an error of the given class from what a response carried, without running the class's
 * message builder: status, message and details are taken verbatim. `code` overrides the class's code, for
 * bodies whose code the catalogue does not know (then `ErrorClass` is `KnownError` itself).
 */
export function reviveKnownError(
  ErrorClass: KnownErrorClass<any, any> | typeof KnownError,
  statusCode: number,
  message: string,
  details: KnownErrorDetails | undefined,
  code?: string,
): KnownError {
  // Runs only the base constructor, with `new.target` set to the class, so the prototype chain (and with it
  // `instanceof` on the class and its families) is the class's.
  const error = Reflect.construct(KnownError, [statusCode, message, details], ErrorClass) as KnownError;
  if (code !== undefined && code !== error.code) {
    wireCodes.set(error, code);
    error.name = `KnownError<${code}>`;
  }
  return error;
}

/** Declares classes again, for bundles that must keep classes they never name (family members). */
export function registerKnownErrors(classes: ReadonlyArray<KnownErrorClass<any, any>>): void {
  for (const ErrorClass of classes) classesByCode.set(ErrorClass.code, ErrorClass);
}

/**
 * The class declared for a wire code, or `undefined` for a code not declared here (a newer server, or a
 * browser bundle that left the class out).
 *
 * @example
 * ```ts
 * knownErrorClassByCode("TEAM_NOT_FOUND") === KnownErrors.TeamNotFound; // true
 * ```
 */
export function knownErrorClassByCode(code: string): KnownErrorClass<any, any> | undefined {
  return classesByCode.get(code);
}

/**
 * Rebuilds the error a response body describes, for clients: an instance of the declared class for the
 * body's code (so `instanceof` works on the class and on its families) whose message, status and details
 * are the body's, verbatim. An undeclared code gives a plain `KnownError` whose `code` is the body's.
 *
 * @example
 * ```ts
 * const body = await response.json();
 * const error = knownErrorFromJson(body, response.status);
 * if (error instanceof KnownErrors.TeamNotFound) console.log(error.details.team_id);
 * ```
 */
export function knownErrorFromJson(json: { code: string; error: string; details?: unknown }, statusCode: number): KnownError {
  const details = json.details as KnownErrorDetails | undefined;
  const ErrorClass = knownErrorClassByCode(json.code);
  return ErrorClass
    ? reviveKnownError(ErrorClass, statusCode, json.error, details)
    : reviveKnownError(KnownError, statusCode, json.error, details, json.code);
}
