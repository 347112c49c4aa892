import { spawn } from "node:child_process";

/** Opens `url` in the person's browser if the system has an opener; the URL is printed either way. */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener (a server, a container): the printed URL is enough.
  }
}
