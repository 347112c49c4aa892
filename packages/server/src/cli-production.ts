/**
 * What a production server cannot do without, all named at once (readEnv names one problem at a time, and
 * lets the public URL default to localhost, which is right for `npm start` but wrong behind a domain: links in
 * emails and OAuth callbacks would point at localhost).
 */
export function missingProductionSettings(source: Record<string, string | undefined>): string[] {
  const devMode = source.LATCHKEY_DEV_MODE === "true" || source.LATCHKEY_DEV_MODE === "1";
  if (devMode) return [];
  const missing: string[] = [];
  if ((source.LATCHKEY_SERVER_SECRET ?? "").length < 32) {
    missing.push("LATCHKEY_SERVER_SECRET: at least 32 characters that sign sessions and seal secrets (e.g. `openssl rand -base64 48`)");
  }
  if (!source.LATCHKEY_PUBLIC_URL) {
    missing.push("LATCHKEY_PUBLIC_URL: the URL people reach this server at (e.g. https://auth.example.com), used in emails and OAuth callbacks");
  }
  return missing;
}

/** For `latchkey-server start`: exits 2 naming every missing setting, as a bad configuration does (env.ts). */
export function refuseWithoutProductionSettings(source: Record<string, string | undefined>): void {
  const missing = missingProductionSettings(source);
  if (missing.length === 0) return;
  console.error(
    [
      "Latchkey runs in production mode and needs these settings to start:",
      ...missing.map((line) => `  - ${line}`),
      "To try it locally without them, run `latchkey-server start --dev` (dev mode: well-known keys, never for production).",
    ].join("\n"),
  );
  process.exit(2);
}
