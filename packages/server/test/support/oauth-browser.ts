/**
 * Plays a browser without JavaScript through an OAuth sign-in at Latchkey's development OpenID provider
 * (src/dev-oauth/): follows redirects by hand, keeps cookies, and fills in the provider's sign-in form.
 */

/**
 * A minimal cookie jar: per host name (as browsers do, cookies ignore ports) and path (RFC 6265 §5.1.4),
 * with deletion by an expiry in the past; no Domain, Secure or SameSite rules.
 */
export class CookieJar {
  readonly #cookies = new Map<string, Map<string, { name: string; value: string; path: string }>>();

  header(url: URL): string | undefined {
    const matching = [...(this.#cookies.get(url.hostname)?.values() ?? [])]
      .filter(({ path }) => url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map(({ name, value }) => `${name}=${value}`).join("; ") : undefined;
  }

  store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      let path = url.pathname.slice(0, Math.max(url.pathname.lastIndexOf("/"), 1));
      let expired = false;
      for (const attribute of attributes) {
        const [key = "", setting = ""] = attribute.split("=").map((part) => part.trim());
        if (key.toLowerCase() === "path" && setting.startsWith("/")) path = setting;
        if (key.toLowerCase() === "max-age") expired = Number(setting) <= 0;
        if (key.toLowerCase() === "expires") expired = Date.parse(setting) <= Date.now();
      }
      const cookies = this.#cookies.get(url.hostname) ?? new Map<string, { name: string; value: string; path: string }>();
      this.#cookies.set(url.hostname, cookies);
      if (expired) cookies.delete(`${path} ${name}`);
      else cookies.set(`${path} ${name}`, { name, value, path });
    }
  }

  /** fetch with this jar's cookies, redirects not followed. */
  async fetch(url: URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(url, response);
    return response;
  }
}

export interface DevProviderLogin {
  /**
   * Where the browser is sent last: the client's `redirect_uri` with `code` and `state` (or an error page),
   * or with `stopAt` the redirect that matched it. Empty when the last answer is not a redirect.
   */
  location: string;
  /** The last answer (the one with that Location). */
  response: Response;
}

export interface DevProviderLoginOptions {
  /** Press "Cancel" on the provider's page instead of continuing (the provider answers `access_denied`). */
  cancel?: boolean;
  /** Stop at the first redirect whose URL starts with this (e.g. Latchkey's callback), without following it. */
  stopAt?: string;
  jar?: CookieJar;
}

const CALLBACK = /\/auth\/oauth\/callback\//;
const MAX_STEPS = 20;

/**
 * From `startUrl` (Latchkey's authorize URL, or a provider's authorization URL) through the provider's
 * sign-in page as `email`, and on into Latchkey's `/auth/oauth/callback/…` (GET, or POST for form_post):
 * returns where Latchkey sends the browser then. Redirects are followed only along the OAuth path: to a
 * provider's authorization request, within the provider's origin, and into a Latchkey callback; the first
 * one elsewhere (the client's redirect URI, an error page) ends the walk.
 */
export async function loginAtDevProvider(startUrl: string, email: string, options: DevProviderLoginOptions = {}): Promise<DevProviderLogin> {
  const jar = options.jar ?? new CookieJar();
  let url = new URL(startUrl);
  let providerOrigin = isAuthorizationRequest(url) ? url.origin : undefined;
  let response = await jar.fetch(url);
  let submitted = false;

  for (let step = 0; step < MAX_STEPS; step++) {
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const target = new URL(location, url);
      if (options.stopAt && target.href.startsWith(options.stopAt)) return { location: target.href, response };
      const follow = CALLBACK.test(target.pathname) || (!CALLBACK.test(url.pathname) && (isAuthorizationRequest(target) || target.origin === providerOrigin));
      if (!follow) return { location: target.href, response };
      if (isAuthorizationRequest(target)) providerOrigin = target.origin;
      url = target;
      response = await jar.fetch(url);
      continue;
    }

    const form = response.status < 500 && (response.headers.get("content-type") ?? "").includes("text/html") ? parseForm(await response.clone().text(), url) : undefined;
    if (form?.hasEmailInput) {
      if (submitted) throw new Error(`The provider showed its sign-in form again: ${form.alert ?? "(no message)"}`);
      submitted = true;
      // Pressing a button sends its name and value: "Cancel", or the first one (what Enter presses).
      const button = options.cancel ? form.buttons.find((candidate) => /^cancel$/i.test(candidate.text)) : form.buttons[0];
      if (!button) throw new Error(`The provider's sign-in form has no ${options.cancel ? '"Cancel" ' : ""}button`);
      const fields = new URLSearchParams(form.fields);
      fields.set("email", email);
      if (button.name) fields.set(button.name, button.value);
      url = form.action;
      response = await jar.fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: fields });
      continue;
    }
    if (form && CALLBACK.test(form.action.pathname)) {
      // response_mode=form_post: the page would post its hidden fields to the callback by script.
      url = form.action;
      response = await jar.fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.fields });
      continue;
    }
    return { location: "", response };
  }
  throw new Error(`More than ${MAX_STEPS} steps from ${startUrl}; stopped at ${url.href}`);
}

/** An OAuth authorization request to a provider on a Latchkey callback: what Latchkey's authorize redirects to. */
function isAuthorizationRequest(url: URL): boolean {
  const redirectUri = url.searchParams.get("redirect_uri");
  return url.searchParams.has("client_id") && redirectUri !== null && CALLBACK.test(redirectUri);
}

interface ParsedForm {
  action: URL;
  /** The form's named inputs with their values (hidden fields included). */
  fields: URLSearchParams;
  hasEmailInput: boolean;
  /** Its submit buttons, in order. */
  buttons: { name?: string; value: string; text: string }[];
  /** The text of a role="alert" element, if the page has one (a validation message). */
  alert?: string;
}

/** The first form of a page, read with regular expressions: enough for the pages these tests meet. */
function parseForm(html: string, base: URL): ParsedForm | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(tag)?.[1];
  const fields = new URLSearchParams();
  let hasEmailInput = false;
  for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(input, "name");
    if (attribute(input, "type") === "email") hasEmailInput = true;
    if (name) fields.set(decodeEntities(name), decodeEntities(attribute(input, "value") ?? ""));
  }
  const buttons = [...form[2]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)]
    .filter(([, tag]) => (attribute(tag!, "type") ?? "submit") === "submit")
    .map(([, tag, text]) => ({ name: attribute(tag!, "name"), value: decodeEntities(attribute(tag!, "value") ?? ""), text: decodeEntities(text!.replace(/<[^>]*>/g, "").trim()) }));
  const alert = /role="alert"[^>]*>([\s\S]*?)</i.exec(html)?.[1];
  return { action: new URL(decodeEntities(attribute(form[1]!, "action") ?? base.href), base), fields, hasEmailInput, buttons, alert: alert && decodeEntities(alert) };
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, entity: string) => named[entity]!);
}
