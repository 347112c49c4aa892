// Runs inside the sandbox, first. A V8 isolate has only the language's own globals; the libraries name a few
// platform globals at load time. These stand-ins give no capability (no network, files or timers).

// arktype lists platform classes (for `instanceof` checks) when it loads; empty classes keep it loading.
for (const name of ["Blob", "File", "FormData", "Headers", "Request", "Response", "URL"]) {
  if (typeof globalThis[name] === "undefined") globalThis[name] = class {};
}

// Tailwind's compiler clones its (plain data) syntax trees with structuredClone.
if (typeof globalThis.structuredClone === "undefined") {
  globalThis.structuredClone = function clone(value) {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(clone);
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [clone(k), clone(v)]));
    if (value instanceof Set) return new Set([...value].map(clone));
    if (value instanceof Date) return new Date(value.getTime());
    const copy = {};
    for (const key of Object.keys(value)) copy[key] = clone(value[key]);
    return copy;
  };
}

// html-to-text's entity decoder (`entities`) unpacks its tables from base64 with atob when it loads.
if (typeof globalThis.atob === "undefined") {
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  globalThis.atob = function atob(input) {
    const clean = String(input).replace(/[\s=]+/g, "");
    let output = "";
    let buffer = 0;
    let bits = 0;
    for (const char of clean) {
      const value = ALPHABET.indexOf(char);
      if (value < 0) throw new Error("atob: not base64");
      buffer = (buffer << 6) | value;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        output += String.fromCharCode((buffer >> bits) & 0xff);
      }
    }
    return output;
  };
}
