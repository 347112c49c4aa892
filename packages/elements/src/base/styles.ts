/**
 * One stylesheet for every element, adopted once per document (or shadow root hosting our elements).
 * Selectors sit inside :where() so their specificity is zero: any page rule wins. Theme through the
 * --auth-* custom properties; dark follows prefers-color-scheme unless `theme="light"|"dark"` is set on the
 * element or an `<auth-app>` above it.
 */
const LIGHT = "--lk-bg:var(--auth-color-background,#fff);--lk-fg:var(--auth-color-text,#111827);--lk-muted:var(--auth-color-muted,#4b5563);--lk-border:var(--auth-color-border,#8a93a2);--lk-primary:var(--auth-color-primary,#1d4ed8);--lk-on-primary:var(--auth-color-primary-text,#fff);--lk-error:var(--auth-color-error,#b91c1c);--lk-subtle:#f3f4f6";
const DARK = "--lk-bg:var(--auth-color-background,#111827);--lk-fg:var(--auth-color-text,#f3f4f6);--lk-muted:var(--auth-color-muted,#b6bcc6);--lk-border:var(--auth-color-border,#6b7280);--lk-primary:var(--auth-color-primary,#93c5fd);--lk-on-primary:var(--auth-color-primary-text,#0b1220);--lk-error:var(--auth-color-error,#fca5a5);--lk-subtle:#1f2937";
const HOSTS = ":where(.lk)";

export const css = `
:where(auth-app){display:contents}
${HOSTS}{${LIGHT};display:block;color:var(--lk-fg);font:var(--auth-font,15px/1.5 system-ui,sans-serif);--lk-r:var(--auth-radius,8px);--lk-s:var(--auth-spacing,1rem)}
@media (prefers-color-scheme:dark){${HOSTS}{${DARK}}}
:where([theme=light] .lk,.lk[theme=light]){${LIGHT}}
:where([theme=dark] .lk,.lk[theme=dark]){${DARK}}
:where(.lk-card){background:var(--lk-bg);max-width:24rem;margin:0 auto;padding:calc(var(--lk-s)*1.5);border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk h2){font-size:1.4em;margin:0 0 var(--lk-s)}
:where(.lk h2:focus){outline:none}
:where(.lk p){margin:0 0 var(--lk-s)}
:where(.lk form,.lk-stack){display:grid;gap:calc(var(--lk-s)*.75)}
:where(.lk label){display:grid;gap:.25rem;font-weight:500}
:where(.lk input){font:inherit;color:var(--lk-fg);background:var(--lk-bg);padding:.55rem .7rem;border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk input[aria-invalid=true]){border-color:var(--lk-error)}
:where(.lk button,.lk-button){font:inherit;font-weight:600;cursor:pointer;padding:.6rem 1rem;border-radius:var(--lk-r);border:1px solid var(--lk-border);background:var(--lk-bg);color:var(--lk-fg);text-align:center;text-decoration:none}
:where(.lk .lk-oauth){display:flex;align-items:center;justify-content:center;gap:.6em}:where(.lk .lk-oauth img){flex:none}
:where(.lk button[type=submit],.lk-primary){background:var(--lk-primary);border-color:var(--lk-primary);color:var(--lk-on-primary)}
:where(.lk button:disabled){opacity:.7;cursor:progress}
:where(.lk :focus-visible){outline:2px solid var(--lk-primary);outline-offset:2px}
:where(.lk a:not(.lk-button)){color:var(--lk-primary)}
:where(.lk-link){background:none!important;border:0!important;padding:0!important;color:var(--lk-primary)!important;font-weight:400!important;text-decoration:underline}
:where(.lk-link,.lk-footer a){display:inline-block;min-height:24px;line-height:24px}
:where(.lk-error){color:var(--lk-error);margin:0;font-size:.93em}
:where(.lk-alert){color:var(--lk-error);border:1px solid var(--lk-error);border-radius:var(--lk-r);padding:.5rem .75rem;margin:0}
:where(.lk-sr){position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
:where(.lk-note){color:var(--lk-muted);font-size:.93em}
:where(.lk-or){display:flex;align-items:center;gap:.5rem;color:var(--lk-muted);font-size:.9em}
:where(.lk-or)::before,:where(.lk-or)::after{content:"";flex:1;border-top:1px solid var(--lk-border)}
:where(.lk-footer){display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;margin-top:var(--lk-s);font-size:.93em}
`;

const adopted = new WeakMap<Document | ShadowRoot, Set<string>>();

/** Adds `text` (once) to the stylesheets of `root`. Elements with rules of their own add them too. */
export function adoptStyles(root: Document | ShadowRoot, text: string): void {
  if (!("adoptedStyleSheets" in root)) return;
  const texts = adopted.get(root) ?? new Set<string>();
  adopted.set(root, texts);
  if (texts.has(text)) return;
  texts.add(text);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
