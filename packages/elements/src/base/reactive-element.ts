import { render } from "lit-html";

/** How a reactive property maps to an attribute (the subset of Lit's property options the elements use). */
export interface PropertyOptions {
  type?: BooleanConstructor | StringConstructor;
  /** The attribute's name; default: the property name in lower case. */
  attribute?: string;
  /** Internal state: re-renders on change, no attribute. */
  state?: boolean;
}

export type Changed = Map<PropertyKey, unknown>;

interface Controller {
  hostConnected?(): void;
  hostDisconnected?(): void;
}

/**
 * A minimal reactive custom-element base over lit-html: declared properties (with attribute reflection in),
 * batched asynchronous updates, `updateComplete`, `willUpdate`/`updated` and reactive controllers (which
 * @lit/localize uses). It stands in for LitElement, whose ~7 KB of features the elements do not use, so the
 * sign-in bundle stays within its 20 KB budget; templates are Lit's own.
 */
/**
 * HTMLElement in a browser; on a server (Node rendering a page, issue 16) a stand-in, so that importing the
 * elements never throws there: they are defined and upgraded in the browser only.
 */
const ElementBase: typeof HTMLElement = typeof HTMLElement === "undefined" ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

export abstract class ReactiveHTMLElement extends ElementBase {
  static properties: Record<string, PropertyOptions> = {};
  private static attributeProperties: Map<string, [string, PropertyOptions]> | undefined;

  /** Read by customElements.define, before any instance exists: the moment to declare the accessors. */
  static get observedAttributes(): string[] {
    const attributes = new Map<string, [string, PropertyOptions]>();
    for (const [name, options] of Object.entries(this.properties)) {
      const key = `__${name}`;
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get(this: Record<string, unknown>) {
          return this[key];
        },
        set(this: ReactiveHTMLElement & Record<string, unknown>, value: unknown) {
          const old = this[key];
          if (Object.is(old, value)) return;
          this[key] = value;
          this.requestUpdate(name, old);
        },
      });
      if (!options.state) attributes.set(options.attribute ?? name.toLowerCase(), [name, options]);
    }
    this.attributeProperties = attributes;
    return [...attributes.keys()];
  }

  protected renderRoot: HTMLElement | ShadowRoot | undefined;
  protected hasUpdated = false;
  private changed: Changed = new Map();
  private pending: Promise<boolean> | undefined;
  private readonly controllers: Controller[] = [];

  /** Resolves once the element has rendered its latest changes. */
  get updateComplete(): Promise<boolean> {
    return this.pending ?? Promise.resolve(true);
  }

  constructor() {
    super();
    // Values set on the element before it was upgraded (a framework setting `.app` early) sit on the
    // instance and would hide the class's accessors: move them behind the accessors.
    for (const name of [...Object.keys((this.constructor as typeof ReactiveHTMLElement).properties), "app"]) {
      if (Object.prototype.hasOwnProperty.call(this, name)) {
        const value = (this as unknown as Record<string, unknown>)[name];
        delete (this as unknown as Record<string, unknown>)[name];
        (this as unknown as Record<string, unknown>)[name] = value;
      }
    }
  }

  addController(controller: Controller): void {
    this.controllers.push(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  removeController(controller: Controller): void {
    this.controllers.splice(this.controllers.indexOf(controller) >>> 0, 1);
  }

  connectedCallback(): void {
    this.renderRoot ??= this.createRenderRoot();
    for (const controller of this.controllers) controller.hostConnected?.();
    this.requestUpdate();
  }

  disconnectedCallback(): void {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const entry = (this.constructor as typeof ReactiveHTMLElement).attributeProperties?.get(attribute);
    if (!entry) return;
    const [name, options] = entry;
    (this as unknown as Record<string, unknown>)[name] = options.type === Boolean ? value !== null : value;
  }

  /** Schedules one update for all changes made in this task. */
  requestUpdate(name?: PropertyKey, old?: unknown): void {
    if (name !== undefined && !this.changed.has(name)) this.changed.set(name, old);
    this.pending ??= Promise.resolve().then(() => {
      this.pending = undefined;
      this.update();
      return true;
    });
  }

  private update(): void {
    if (!this.renderRoot) return;
    const changed = this.changed;
    this.changed = new Map();
    this.willUpdate(changed);
    // Elements that draw nothing (`<auth-app>`) leave their children alone, without even a marker.
    const template = this.render();
    if (template !== undefined) render(template, this.renderRoot, { host: this });
    this.hasUpdated = true;
    this.updated(changed);
  }

  protected createRenderRoot(): HTMLElement | ShadowRoot {
    return this;
  }

  protected willUpdate(_changed: Changed): void {}
  protected updated(_changed: Changed): void {}
  protected render(): unknown {
    return undefined;
  }
}
