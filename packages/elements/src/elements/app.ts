import { createClientApp, createClientAppWithHostedPages, type ClientApp } from "@latchkey/core";
import { ReactiveElement, type PropertyValues } from "lit";
import { setLocale, startingLocale } from "../base/i18n.js";
import { announceAppChange, type AppHost } from "../base/app-registry.js";

/**
 * Configures Latchkey once for the elements inside it. Give either the attributes (the element creates
 * the app) or set the `app` property to an app made with `@latchkey/core`'s `createClientApp`.
 *
 * @element auth-app
 * @attr project-id - The project's id.
 * @attr publishable-client-key - The project's publishable client key.
 * @attr base-url - The Latchkey server, e.g. `https://auth.example.com`.
 * @attr handler-path - Where the handler pages live (default `/handler`).
 * @attr {boolean} hosted-pages - Use the handler pages the Latchkey server at `base-url` hosts for the project
 *   (sign-up, forgot password, the pages mails link to, …) instead of routes of the app's own, as
 *   `init({ hostedPages: true })` does: links to them bring people back to the page they came from, signed in.
 *   Not in the sign-in bundle (latchkey-sign-in.iife.js): its app then throws "… needs the full bundle".
 * @attr {"light" | "dark"} theme - `light` or `dark` for every element inside; default follows the system.
 * @attr locale - The language of the page's elements (`en`, `de`, `fr`, `es`, `pt-BR`, `it`, `nl`, `ja`,
 *   `zh-CN`, `ar`; others match by language, else English). Default: the page's `<html lang>`.
 */
export class AuthAppElement extends ReactiveElement implements AppHost {
  static override properties = {
    projectId: { type: String, attribute: "project-id" },
    publishableClientKey: { type: String, attribute: "publishable-client-key" },
    baseUrl: { type: String, attribute: "base-url" },
    handlerPath: { type: String, attribute: "handler-path" },
    hostedPages: { type: Boolean, attribute: "hosted-pages" },
    locale: { type: String },
  };

  declare projectId: string | undefined;
  declare publishableClientKey: string | undefined;
  declare baseUrl: string | undefined;
  declare handlerPath: string | undefined;
  declare hostedPages: boolean;
  declare locale: string | undefined;
  private given: ClientApp | undefined;
  private created: { app: ClientApp; key: string } | undefined;

  constructor() {
    super();
    // A framework may set `.app` before the element is upgraded: that value sits on the instance and would
    // hide the accessors below, so move it behind them (Lit does this for its declared properties only).
    if (Object.prototype.hasOwnProperty.call(this, "app")) {
      const app = (this as { app?: ClientApp }).app;
      delete (this as { app?: ClientApp }).app;
      this.app = app;
    }
  }

  /** The app of the elements inside: the one set, else one made from the attributes. */
  get app(): ClientApp | undefined {
    if (this.given) return this.given;
    const { projectId, publishableClientKey, baseUrl, handlerPath, hostedPages } = this;
    if (!projectId || !publishableClientKey || !baseUrl) return undefined;
    const key = JSON.stringify([projectId, publishableClientKey, baseUrl, handlerPath, hostedPages]);
    if (this.created?.key !== key) {
      // As init-full.ts's `init` makes it (the sign-in bundle has a stand-in that throws: sign-in-only-actions.ts).
      const create = hostedPages ? createClientAppWithHostedPages : createClientApp;
      this.created = { key, app: create({ projectId, publishableClientKey, baseUrl, urls: handlerPath ? { handler: handlerPath } : undefined }) };
    }
    return this.created.app;
  }

  set app(app: ClientApp | undefined) {
    this.given = app;
    announceAppChange();
  }

  // Its children are the page's own markup: nothing to render (hence Lit's ReactiveElement, not LitElement), no shadow root.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has("locale") && this.locale) void setLocale(startingLocale(this.locale));
    announceAppChange();
  }
}
