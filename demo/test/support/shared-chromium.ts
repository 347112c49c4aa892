import { chromium, type Browser } from "playwright-core";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { CHROMIUM_ARGS } from "./chromium-args.mjs";

/**
 * The Chromium of this worker thread, as every browser test file without switches of its own launches it: started by
 * the first file that asks and used by the files that run after it in the same thread (vite.config.ts: a project's
 * files share its threads), since a launch cost ~1.2 s of CPU and a file's start waited for it. Tests get what they
 * got before: a fresh browser context each (a profile of its own: cookies, storage, cache), closed after each test
 * and, whatever is left, when the file ends (`releaseChromium`). The browser ends with its thread (Chromium quits
 * when playwright-core's DevTools pipe closes); one that crashed or was closed is launched again for the next file.
 * Kept on globalThis, which outlives a module that vitest loads again for another file.
 */
const LAUNCHED = Symbol.for("latchkey.test.sharedChromium");

export function sharedChromium(): Promise<Browser> {
  const holder = globalThis as { [LAUNCHED]?: Promise<Browser> };
  const existing = holder[LAUNCHED];
  if (existing) return existing;
  const launched = chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const forget = () => {
    if (holder[LAUNCHED] === launched) delete holder[LAUNCHED];
  };
  launched.then((browser) => browser.on("disconnected", forget), forget);
  holder[LAUNCHED] = launched;
  return launched;
}

/** At the end of a file: closes the contexts it left open in the shared browser (a failed test's), not the browser. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
}
