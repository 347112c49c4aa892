import type { ClientApp } from "@latchkey/core";
import { updateWhenLocaleChanges } from "@lit/localize";
import { LitElement, type PropertyValues } from "lit";
import type { ReadableAtom } from "nanostores";
import { findApp, onAppChange } from "./app-registry.js";
import { autofocusFirstField } from "./forms.js";
import { isRightToLeft } from "./i18n.js";
import { adoptStyles, css } from "./styles.js";

let nextId = 0;

/**
 * The base of every element: Lit's LitElement, rendering into the light DOM, not a shadow root: browsers' password
 * managers and autofill reliably see only forms in the document tree, and sign-in forms must be fillable and
 * savable. Styles are one stylesheet adopted once per document (see styles.ts), with zero specificity so
 * pages can override anything with plain CSS.
 *
 * The theme tokens below are read by every element (set them on the element, an `<auth-app>` or any ancestor);
 * the defaults are the light theme's, then the dark theme's.
 * @cssprop --auth-color-primary - Brand colour: buttons, links, focus rings (`#1d4ed8`, `#93c5fd`).
 * @cssprop --auth-color-on-primary - Text on the brand colour (default: black or white, whichever contrasts more).
 * @cssprop --auth-color-primary-text - The older name of `--auth-color-on-primary`.
 * @cssprop --auth-color-background - Background of cards, menus and dialogs (`#fff`, `#111827`).
 * @cssprop --auth-color-text - Text (`#111827`, `#f3f4f6`).
 * @cssprop --auth-color-muted - Secondary text: hints, dates, descriptions (`#4b5563`, `#b6bcc6`).
 * @cssprop --auth-color-border - Borders of cards and fields (`#8a93a2`, `#6b7280`).
 * @cssprop --auth-color-link - Links (default: the brand colour, darkened or lightened to a 4.5:1 contrast).
 * @cssprop --auth-color-error - Error messages and destructive buttons (`#b91c1c`, `#fca5a5`).
 * @cssprop --auth-font - The `font` shorthand of the widgets (`15px/1.5 system-ui, sans-serif`).
 * @cssprop --auth-radius - Corner radius of cards, fields and buttons (`8px`).
 * @cssprop --auth-spacing - The spacing unit that gaps and paddings are multiples of (`1rem`).
 */
export class AuthElement extends LitElement {
  /** The app this element works with (closest `<auth-app>`, else the page default). */
  protected app: ClientApp | undefined;
  /** A prefix for ids of this instance's labels and inputs. */
  protected readonly uid = `lk${++nextId}`;
  private stopListening: (() => void) | undefined;
  private readonly watched: Array<{ select: (app: ClientApp) => ReadableAtom<unknown>; unsubscribe?: () => void; value?: unknown }> = [];

  constructor() {
    super();
    // Re-render in the new language when the page's locale changes.
    updateWhenLocaleChanges(this);
  }

  /** Rules only this element needs, added to the shared stylesheet's when it first renders. */
  static css = "";

  // The element itself is the render root (light DOM, see above), with the shared stylesheet adopted by its document or shadow root.
  protected override createRenderRoot(): HTMLElement {
    const root = this.getRootNode() as Document | ShadowRoot;
    adoptStyles(root, css);
    const own = (this.constructor as typeof AuthElement).css;
    if (own) adoptStyles(root, own);
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The stylesheet's hook (styles.ts); also lets pages style every Latchkey element at once.
    this.classList.add("lk");
    this.stopListening = onAppChange(() => this.attachApp());
    this.attachApp();
    if (this.autofocus) autofocusFirstField(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopListening?.();
    for (const entry of this.watched) entry.unsubscribe?.();
  }

  /**
   * Subscribes to one of the app's stores for as long as the element is connected and returns a reader of
   * its latest value. Call in the constructor.
   */
  protected watch<T>(select: (app: ClientApp) => ReadableAtom<T>): () => T | undefined {
    const entry: (typeof this.watched)[number] = { select };
    this.watched.push(entry);
    return () => entry.value as T | undefined;
  }

  /** Right-to-left languages lay the element out right to left, whatever the page's own direction. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (isRightToLeft()) this.setAttribute("dir", "rtl");
    else if (this.getAttribute("dir") === "rtl") this.removeAttribute("dir");
  }

  /** Called once an app is known (and again if it changes). */
  protected appAttached(_app: ClientApp): void {}

  private attachApp(): void {
    const app = findApp(this);
    if (!app || app === this.app) return;
    this.app = app;
    for (const entry of this.watched) {
      entry.unsubscribe?.();
      entry.unsubscribe = entry.select(app).subscribe((value) => {
        entry.value = value;
        this.requestUpdate();
      });
    }
    this.appAttached(app);
    this.requestUpdate();
  }

  /** Fires a bubbling, composed event, so frameworks and pages can listen anywhere above. */
  protected emit(type: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** Moves focus to the new step's heading (or first field) after a step change, for keyboard and screen-reader users. */
  protected focusStep(): void {
    void this.updateComplete.then(() => {
      const target = this.querySelector<HTMLElement>("[autofocus]") ?? this.querySelector<HTMLElement>("h2");
      target?.focus();
    });
  }
}
