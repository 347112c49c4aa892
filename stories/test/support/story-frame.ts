import type { Page } from "playwright-core";

/**
 * Drives one Storybook preview frame (`iframe.html`) the way Storybook's own manager does: through the
 * preview's channel. The frame loads once; each story is then selected with `setCurrentStory` (or remounted
 * with `forceRemount` when it is already shown), which renders it into a fresh root and runs its play
 * function, and the frame reports `storyFinished` when the play function and its cleanup are done. No page
 * reloads and no fixed sleeps: a story costs what its own render and play take.
 */

export interface RenderOutcome {
  /** Why the story failed: its play function threw, its render threw, an error display, a time-out. */
  error?: string;
  millis: number;
}

/** The channel events that carry a story's failure (Storybook's `core-events`). */
const FAILURE_EVENTS = ["playFunctionThrewException", "storyThrewException", "storyErrored", "storyMissing", "unhandledErrorsWhilePlaying"];

export async function openFrame(page: Page, baseUrl: string, firstStoryId: string): Promise<void> {
  await page.goto(`${baseUrl}/iframe.html?id=${encodeURIComponent(firstStoryId)}&viewMode=story&globals=theme:light`);
  await page.waitForFunction(
    () => (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } }).__STORYBOOK_PREVIEW__?.currentRender?.phase === "finished",
    undefined,
    { timeout: 30_000 },
  );
}

/** Renders a story (selecting it, or remounting it when it is the current one) and waits for it to finish. */
export async function renderStory(page: Page, storyId: string, timeoutMillis = 20_000): Promise<RenderOutcome> {
  return page.evaluate(
    ({ storyId, timeoutMillis, failureEvents }) =>
      new Promise<RenderOutcome>((resolve) => {
        type Channel = { on(event: string, listener: (payload: unknown) => void): void; off(event: string, listener: (payload: unknown) => void): void; emit(event: string, payload: unknown): void };
        const w = window as unknown as { __STORYBOOK_ADDONS_CHANNEL__: Channel; __STORYBOOK_PREVIEW__: { currentRender?: { id?: string } } };
        const channel = w.__STORYBOOK_ADDONS_CHANNEL__;
        const started = performance.now();
        const errors: string[] = [];
        const onFailure = (payload: unknown) => {
          const items = Array.isArray(payload) ? payload : [payload];
          for (const item of items) {
            const e = item as { message?: string; title?: string; description?: string } | string;
            errors.push(typeof e === "string" ? e : (e?.message ?? [e?.title, e?.description].filter(Boolean).join(": ") ?? JSON.stringify(e)));
          }
        };
        const finish = (error?: string) => {
          clearTimeout(timer);
          channel.off("storyFinished", onFinished);
          for (const event of failureEvents) channel.off(event, onFailure);
          const shown = document.body.classList.contains("sb-show-errordisplay") ? (document.querySelector("#error-message")?.textContent ?? "").trim() : "";
          const all = [...errors, ...(error ? [error] : []), ...(shown ? [shown] : [])];
          resolve({ error: all.length ? [...new Set(all)].join(" | ") : undefined, millis: Math.round(performance.now() - started) });
        };
        const onFinished = (payload: unknown) => {
          const { storyId: id, status } = payload as { storyId: string; status: string };
          if (id === storyId) finish(status === "success" ? undefined : errors.length ? undefined : `story finished with status ${status}`);
        };
        const timer = setTimeout(() => finish(`did not finish within ${timeoutMillis} ms`), timeoutMillis);
        channel.on("storyFinished", onFinished);
        for (const event of failureEvents) channel.on(event, onFailure);
        if (w.__STORYBOOK_PREVIEW__.currentRender?.id === storyId) channel.emit("forceRemount", { storyId });
        else channel.emit("setCurrentStory", { storyId, viewMode: "story" });
      }),
    { storyId, timeoutMillis, failureEvents: FAILURE_EVENTS },
  );
}

/** Changes toolbar globals (e.g. the theme) and waits until the frame has taken them. */
export async function updateGlobals(page: Page, globals: Record<string, string>): Promise<void> {
  await page.evaluate(
    (globals) =>
      new Promise<void>((resolve) => {
        type Channel = { once(event: string, listener: () => void): void; emit(event: string, payload: unknown): void };
        const channel = (window as unknown as { __STORYBOOK_ADDONS_CHANNEL__: Channel }).__STORYBOOK_ADDONS_CHANNEL__;
        // The current story re-renders with the new globals; its "storyFinished" says it is done.
        channel.once("storyFinished", () => resolve());
        channel.emit("updateGlobals", { globals });
      }),
    globals,
  );
}

/** A story as the loaded preview knows it (Storybook's `extract()`, which Chromatic and the test runner read). */
export interface ExtractedStory {
  id: string;
  title: string;
  name: string;
  component?: string;
  /** The story's viewport global (`mobile1`, …), if it sets one. */
  viewport?: string;
  hostCss?: string;
  /** The canned server's user and teams (parameters.latchkey), for the stories' data. */
  displayName?: string | null;
  teamNames: string[];
  /** Each arg type by name: its Docs table category, whether it has a row, whether it has a control. */
  argTypes: Record<string, { category?: string; shown: boolean; control: boolean }>;
}

export async function extractStories(page: Page): Promise<ExtractedStory[]> {
  return page.evaluate(async () => {
    type Raw = {
      id: string;
      title: string;
      name: string;
      component?: unknown;
      globals?: { viewport?: { value?: string } };
      parameters: { hostCss?: string; latchkey?: { user?: { display_name?: string | null }; answers?: Record<string, { json?: { items?: Array<{ display_name?: string }> } }> } };
      argTypes: Record<string, { table?: { category?: string; disable?: boolean }; control?: unknown }>;
    };
    const preview = (window as unknown as { __STORYBOOK_PREVIEW__: { extract(): Promise<Record<string, Raw>> } }).__STORYBOOK_PREVIEW__;
    return Object.values(await preview.extract()).map((story) => ({
      id: story.id,
      title: story.title,
      name: story.name,
      component: typeof story.component === "string" ? story.component : undefined,
      viewport: story.globals?.viewport?.value,
      hostCss: story.parameters.hostCss,
      displayName: story.parameters.latchkey?.user?.display_name,
      teamNames: (story.parameters.latchkey?.answers?.["GET /teams"]?.json?.items ?? []).map((team) => team.display_name ?? ""),
      argTypes: Object.fromEntries(
        Object.entries(story.argTypes).map(([name, argType]) => [
          name,
          { category: argType.table?.category, shown: argType.table?.disable !== true, control: argType.control !== undefined && argType.control !== false },
        ]),
      ),
    }));
  });
}
