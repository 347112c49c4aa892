/**
 * One stylesheet for every element, adopted once per document (or shadow root hosting our elements).
 * Rules are written inside :where() and given one fixed specificity when adopted (`isolated`, two classes'
 * worth): enough to beat the element and attribute selectors of CSS resets (Tailwind's preflight, Bootstrap's
 * reboot, normalize.css), so a host page cannot break the widgets by accident, while the rules still apply in
 * the order written. The first rule reverts everything inside a widget to the browser's own defaults (`all:
 * revert`): what the page's CSS did to buttons, headings, lists or line heights does not reach in, and the
 * rules after it style the widgets on the same ground on every page. Theme through the --auth-* custom properties; dark follows prefers-color-scheme unless
 * `theme="light"|"dark"` is set on the element or an `<auth-app>` above it.
 * Names (people, teams: often long email addresses) sit on one line as `.lk-name`, ellipsised, with the full
 * name in their `title`; other long words break (`overflow-wrap`) rather than widen the page.
 */
/** WCAG relative luminance of the colour being edited, in a relative colour's srgb-linear channels. */
const Y = "(0.2126 * r + 0.7152 * g + 0.0722 * b)";
const grey = (value: string) => `color(from var(--lk-primary) srgb-linear calc(${value}) calc(${value}) calc(${value}))`;
/**
 * Text on the brand colour: white on a dark brand colour, black on a light one, decided by the colour's
 * luminance (0.179 is where both reach the same contrast), so any brand colour meets WCAG AA (≥ 4.5:1).
 * `--auth-color-on-primary` (or the older `--auth-color-primary-text`) sets it outright.
 */
const ON_PRIMARY = `var(--auth-color-on-primary,var(--auth-color-primary-text,${grey(`clamp(0, (0.179 - ${Y}) * 1000, 1)`)}))`;
/** Links in the brand colour on the light background: darkened (same hue) until luminance ≤ 0.175 (≥ 4.5:1 on white). */
const LINK_ON_LIGHT = `color(from var(--lk-primary) srgb-linear calc(r * min(1, 0.175 / max(${Y}, 0.0001))) calc(g * min(1, 0.175 / max(${Y}, 0.0001))) calc(b * min(1, 0.175 / max(${Y}, 0.0001))))`;
/** …and on the dark background: lightened towards white until luminance ≥ 0.235 (≥ 4.5:1 on #111827). */
const lighten = (channel: string) => `calc(${channel} + max(0, (0.235 - ${Y}) / max(1 - ${Y}, 0.0001)) * (1 - ${channel}))`;
const LINK_ON_DARK = `color(from var(--lk-primary) srgb-linear ${lighten("r")} ${lighten("g")} ${lighten("b")})`;

const LIGHT = `--lk-bg:var(--auth-color-background,#fff);--lk-fg:var(--auth-color-text,#111827);--lk-muted:var(--auth-color-muted,#4b5563);--lk-border:var(--auth-color-border,#8a93a2);--lk-primary:var(--auth-color-primary,#1d4ed8);--lk-on-primary:${ON_PRIMARY};--lk-link:var(--auth-color-link,${LINK_ON_LIGHT});--lk-error:var(--auth-color-error,#b91c1c);--lk-subtle:#f3f4f6`;
const DARK = `--lk-bg:var(--auth-color-background,#111827);--lk-fg:var(--auth-color-text,#f3f4f6);--lk-muted:var(--auth-color-muted,#b6bcc6);--lk-border:var(--auth-color-border,#6b7280);--lk-primary:var(--auth-color-primary,#93c5fd);--lk-on-primary:${ON_PRIMARY};--lk-link:var(--auth-color-link,${LINK_ON_DARK});--lk-error:var(--auth-color-error,#fca5a5);--lk-subtle:#1f2937`;
const HOSTS = ":where(.lk)";

export const css = `
:where(auth-app){display:contents}
:where(.lk,.lk *){all:revert}
:where(.lk *)::before,:where(.lk *)::after,:where(.lk *)::placeholder,:where(.lk *)::file-selector-button,:where(.lk *)::backdrop{all:revert}
:where(.lk [hidden]){display:none!important}
${HOSTS}{${LIGHT};display:block;overflow-wrap:break-word;color:var(--lk-fg);font:var(--auth-font,15px/1.5 system-ui,sans-serif);--lk-r:var(--auth-radius,8px);--lk-s:var(--auth-spacing,1rem)}
@media (prefers-color-scheme:dark){${HOSTS}{${DARK}}}
:where([theme=light] .lk,.lk[theme=light]){${LIGHT}}
:where([theme=dark] .lk,.lk[theme=dark]){${DARK}}
:where(.lk-card){background:var(--lk-bg);max-width:24rem;margin:0 auto;padding:calc(var(--lk-s)*1.5);border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk h2){font-size:1.4em;margin:0 0 var(--lk-s)}
:where(.lk h2:focus){outline:none}
:where(.lk p){margin:0 0 var(--lk-s)}
:where(.lk form,.lk-stack){display:grid;grid-template-columns:minmax(0,1fr);gap:calc(var(--lk-s)*.75)}
:where(.lk label){display:grid;grid-template-columns:minmax(0,1fr);gap:.25rem;font-weight:500}
:where(.lk input){font:inherit;color:var(--lk-fg);background:var(--lk-bg);padding:.55rem .7rem;border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk input[aria-invalid=true]){border-color:var(--lk-error)}
:where(.lk button,.lk-button){font:inherit;font-weight:600;cursor:pointer;padding:.6rem 1rem;border-radius:var(--lk-r);border:1px solid var(--lk-border);background:var(--lk-bg);color:var(--lk-fg);text-align:center;text-decoration:none}
:where(.lk .lk-oauth){display:flex;align-items:center;justify-content:center;gap:.6em}:where(.lk .lk-oauth img,.lk img[part=oauth-icon]){flex:none;width:20px;height:20px}
:where(.lk button[type=submit],.lk-primary){background:var(--lk-primary);border-color:var(--lk-primary);color:var(--lk-on-primary)}
:where(.lk button:disabled,.lk [aria-disabled=true]){opacity:.7;cursor:progress}
:where(.lk :focus-visible){outline:2px solid var(--lk-primary);outline-offset:2px}
:where(.lk a:not(.lk-button)){color:var(--lk-link)}
:where(.lk-link,.lk-reveal){background:none!important;border:0!important;padding:0!important;color:var(--lk-link)!important;font-weight:400!important;text-decoration:underline}
:where(.lk-link,.lk-footer a,.lk-reveal){display:inline-block;min-height:24px;line-height:24px}
:where(.lk-reveal){justify-self:start}:where(.lk-reveal[aria-pressed=true])::before{content:"✓ "/""}
:where(.lk-error){color:var(--lk-error);margin:0;font-size:.93em}
:where(.lk-alert){color:var(--lk-error);border:1px solid var(--lk-error);border-radius:var(--lk-r);padding:.5rem .75rem;margin:0}
:where(.lk-sr){position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
:where(.lk-name){min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
:where(.lk-note){color:var(--lk-muted);font-size:.93em}
:where(.lk-or){display:flex;align-items:center;gap:.5rem;color:var(--lk-muted);font-size:.9em}
:where(.lk-or)::before,:where(.lk-or)::after{content:"";flex:1;border-top:1px solid var(--lk-border)}
:where(.lk-footer){display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;margin-top:var(--lk-s);font-size:.93em}
`;

const adopted = new WeakMap<Document | ShadowRoot, Set<string>>();

/** Adds `text` (once) to the stylesheets of `root`. Elements with rules of their own add them too. */
/**
 * Two classes' worth of specificity, matching every element: `.\#` is a class no element has. A page that
 * means to override a rule still can, with a more specific selector (`.my-app auth-sign-in [part=submit]`).
 */
const BOOST = ":not(.\\#):not(.\\#)";

/** Adds BOOST after the `:where(…)` that starts each selector of our rules (never inside one). */
export function isolated(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const startsSelector = text.startsWith(":where(", i) && /^$|[{},\n]$/.test(out.trimEnd().slice(-1));
    if (!startsSelector) {
      out += text[i];
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      if (text[j] === "(") depth++;
      else if (text[j] === ")" && --depth === 0) break;
    }
    out += text.slice(i, j + 1) + BOOST;
    i = j;
  }
  return out;
}

export function adoptStyles(root: Document | ShadowRoot, text: string): void {
  if (!("adoptedStyleSheets" in root)) return;
  const texts = adopted.get(root) ?? new Set<string>();
  adopted.set(root, texts);
  if (texts.has(text)) return;
  texts.add(text);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(isolated(text));
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
