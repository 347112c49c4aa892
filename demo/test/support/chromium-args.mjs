import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The switches every browser test gives Debian's Chromium (through playwright-core's launch), in one place.
 *
 * Chromium's headless mode is the whole browser without a screen: each new window (playwright-core opens one per
 * browser context) gets a toolbar whose address-bar suggestion popup is a WebUI page in a renderer process of its
 * own (chrome://omnibox-popup.top-chrome/). No test ever opens that popup, yet it cost ~0.45 s of renderer CPU and
 * ~0.15 s of the browser process's per context (Chromium 156: `node bench/chromium-contexts.mjs`). UNUSED_FEATURES_OFF
 * switches its features off.
 *
 * Chromium keeps only the last `--disable-features` switch it is given, and playwright-core passes one of its own
 * before the caller's (features that would make its automation misbehave), so the switch here repeats
 * playwright-core's list, read from the installed playwright-core, and adds the popup's. Should that list not be
 * found (another playwright-core layout), no switch is added: the popup then costs its CPU again, nothing else.
 * LATCHKEY_TEST_CHROMIUM_POPUP=1 keeps the popup and the spare renderer (below), Chromium's defaults, to measure a test
 * file both ways (bench/e2e-files.mjs).
 */
export const OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"];

/**
 * Chromium keeps a renderer process started ahead of the next navigation, and that spare belongs to one browser
 * context: a test closes its context after a page or two, so the spare of nearly every context was started only to
 * be ended (a launch with 5 contexts of a page each started 10 renderers; with the spare off, 5). A navigation then
 * starts its renderer when it needs it, as the first one in a context already did.
 */
export const SPARE_RENDERER_FEATURES = ["SpareRendererForSitePerProcess"];

/** playwright-core's own `--disable-features` list, or undefined when it cannot be read. */
export function playwrightDisabledFeatures() {
  try {
    const source = readFileSync(createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle"), "utf8");
    const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(source)?.[1];
    const names = list ? [...list.matchAll(/^\s*"([A-Za-z0-9]+)",?\s*$/gm)].map((match) => match[1]) : [];
    return names.length > 0 ? names : undefined;
  } catch {
    return undefined;
  }
}

const defaults = process.env.LATCHKEY_TEST_CHROMIUM_POPUP === "1" ? undefined : playwrightDisabledFeatures();

/** `--disable-features` with playwright-core's list, the omnibox popup's and the spare renderer's (none if the list is unknown). */
export const UNUSED_FEATURES_OFF = defaults ? [`--disable-features=${[...defaults, ...OMNIBOX_POPUP_FEATURES, ...SPARE_RENDERER_FEATURES].join(",")}`] : [];

/** Headless, no sandbox (containers), no GPU, and nothing that reaches the network on its own. */
export const BASE_CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const CHROMIUM_ARGS = [...BASE_CHROMIUM_ARGS, ...UNUSED_FEATURES_OFF];
