import { crc32 } from "node:zlib";
import { CROCKFORD_ALPHABET, secureRandomString } from "./secrets.js";

/**
 * The protocol's format for users' and teams' API keys, so leaked-key scanners recognise them:
 * `<pk|sk>_<45-char secret><key id without dashes><user|team><scanner flag><marker><CRC-32 hex>`.
 * The scanner flag says "self-hosted" (1) plus 2 when the key is public; the marker is fixed; the
 * checksum lets a scanner (and us) reject a mistyped or made-up key without a lookup.
 */
const MARKER = "574ck4u7h";
const KEY_PATTERN = new RegExp(`^([a-zA-Z0-9_]+)_([a-zA-Z0-9_]{45})([a-zA-Z0-9_]{32})([a-zA-Z0-9_]{4})([a-zA-Z0-9_])(${MARKER})([a-zA-Z0-9_]{8})$`);
const SELF_HOSTED = 1;
const PUBLIC = 2;

export type ApiKeyOwnerType = "user" | "team";

export interface ParsedApiKey {
  id: string;
  type: ApiKeyOwnerType;
  isPublic: boolean;
}

export function createProjectApiKey(options: { id: string; type: ApiKeyOwnerType; isPublic: boolean }): string {
  const prefix = options.isPublic ? "pk" : "sk";
  const flag = CROCKFORD_ALPHABET[SELF_HOSTED + (options.isPublic ? PUBLIC : 0)]!;
  const body = `${prefix}_${secureRandomString()}${options.id.replaceAll("-", "")}${options.type}${flag}${MARKER}`;
  return body + checksum(body);
}

/** The key's id, owner type and visibility, or undefined when it is not a well-formed key with a valid checksum. */
export function parseProjectApiKey(key: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const [, , , idPart, type, flag, , sum] = match;
  if (type !== "user" && type !== "team") return undefined;
  if (checksum(key.slice(0, key.length - 8)) !== sum) return undefined;
  const id = idPart!.toLowerCase().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  return { id, type, isPublic: (parseInt(flag!, 32) & PUBLIC) !== 0 };
}

function checksum(text: string): string {
  return crc32(Buffer.from(text, "utf8")).toString(16).padStart(8, "0");
}
