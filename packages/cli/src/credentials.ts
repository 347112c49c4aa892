import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** What `latchkey login` keeps: where to reach the project, and the CLI session's refresh token. */
export interface Credentials {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  refreshToken: string;
}

/** `$XDG_CONFIG_HOME/latchkey/credentials.json`, else `~/.config/latchkey/credentials.json` (Windows: %APPDATA%). */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === "win32" && env.APPDATA) || join(env.HOME || homedir(), ".config");
  return join(base, "latchkey", "credentials.json");
}

/** Written readable by the owner only (0600, directory 0700): the refresh token is a password. */
export async function saveCredentials(credentials: Credentials, path = credentialsPath()): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 });
  // `mode` applies only when the file is created; an older file keeps its mode otherwise.
  await chmod(path, 0o600);
}

export async function loadCredentials(path = credentialsPath()): Promise<Credentials | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Credentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export async function deleteCredentials(path = credentialsPath()): Promise<void> {
  await rm(path, { force: true });
}
