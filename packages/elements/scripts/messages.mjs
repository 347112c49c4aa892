// The elements' message catalogue. Every user-visible string in src/ is `msg("…")` or msg(str`… ${x} …`)
// (@lit/localize, runtime mode). This script extracts them into locales/en.json — message id → English text,
// with {0}, {1} … for a str message's values — which is what translators translate into locales/<locale>.json.
//   node packages/elements/scripts/messages.mjs          write locales/en.json
//   node packages/elements/scripts/messages.mjs --check  exit 1 if en.json is stale or a locale lacks, adds
//                                                        or mangles a message (its placeholders must match)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateMsgId } from "@lit/localize/internal/id-generation.js";

const pkg = fileURLToPath(new URL("..", import.meta.url));
const localesDir = join(pkg, "locales");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** The parts of a str`…` template literal starting at `start` (just after the backtick): its strings. */
function templateStrings(code, start) {
  const strings = [];
  let current = "";
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === "\\") {
      current += JSON.parse(`"${code.slice(i, i + 2)}"`);
      i++;
    } else if (c === "`") {
      strings.push(current);
      return strings;
    } else if (c === "$" && code[i + 1] === "{") {
      strings.push(current);
      current = "";
      let depth = 1;
      i += 2;
      for (; depth > 0; i++) {
        if (code[i] === "{") depth++;
        else if (code[i] === "}") depth--;
      }
      i--;
    } else current += c;
  }
  throw new Error("unterminated template");
}

export function extractMessages() {
  const messages = new Map();
  for (const file of sourceFiles(join(pkg, "src"))) {
    const code = readFileSync(file, "utf8");
    for (const match of code.matchAll(/\bmsg\(\s*(?:"((?:[^"\\]|\\.)*)"|str`)/g)) {
      if (match[1] !== undefined) {
        const text = JSON.parse(`"${match[1]}"`);
        messages.set(generateMsgId(text, false), text);
      } else {
        const strings = templateStrings(code, match.index + match[0].length);
        messages.set(generateMsgId(strings, false), strings.map((s, i) => (i === 0 ? s : `{${i - 1}}${s}`)).join(""));
      }
    }
  }
  return Object.fromEntries([...messages].sort(([, a], [, b]) => a.localeCompare(b)));
}

const placeholders = (text) => [...text.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort().join();

export function checkLocales() {
  const problems = [];
  const source = extractMessages();
  const written = JSON.parse(readFileSync(join(localesDir, "en.json"), "utf8"));
  if (JSON.stringify(written) !== JSON.stringify(source)) problems.push("locales/en.json is stale: run node packages/elements/scripts/messages.mjs");
  for (const file of readdirSync(localesDir).filter((f) => f.endsWith(".json") && f !== "en.json")) {
    const locale = JSON.parse(readFileSync(join(localesDir, file), "utf8"));
    for (const [id, text] of Object.entries(source)) {
      if (typeof locale[id] !== "string" || locale[id].trim() === "") problems.push(`${file}: no translation of ${JSON.stringify(text)} (${id})`);
      else if (placeholders(locale[id]) !== placeholders(text)) problems.push(`${file}: ${id} must keep the placeholders of ${JSON.stringify(text)}`);
    }
    for (const id of Object.keys(locale)) if (!(id in source)) problems.push(`${file}: ${id} is no longer a message`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const problems = checkLocales();
    for (const problem of problems) console.error(problem);
    process.exitCode = problems.length ? 1 : 0;
  } else {
    const messages = extractMessages();
    writeFileSync(join(localesDir, "en.json"), JSON.stringify(messages, null, 2) + "\n");
    console.log(`locales/en.json: ${Object.keys(messages).length} messages`);
  }
}
