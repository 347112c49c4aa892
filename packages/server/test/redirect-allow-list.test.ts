import { describe, expect, it } from "vitest";
import { renderProjectConfig } from "../src/config/project-config.js";
import { isLocalhost, isRedirectUrlTrusted, isUrlTrustedByProject, matchHostnamePattern, type RedirectTrustOptions } from "../src/config/trusted-domains.js";

/**
 * The redirect allow-list (SPEC.md §2 and §5) on its own: every callback URL a mail links to, and every
 * redirect, goes through `isRedirectUrlTrusted`. The HTTP suite (redirect-allow-list-http.test.ts) runs a
 * selection of these through the endpoints that send mail.
 */

const trusted = (url: string, options: Partial<RedirectTrustOptions> = {}) =>
  isRedirectUrlTrusted(url, { trustedDomains: ["https://trusted.com"], allowLocalhost: false, ...options });

describe("redirect URLs against one trusted domain", () => {
  it.each([
    "https://trusted.com",
    "https://trusted.com/",
    "https://trusted.com/handler/magic-link-callback?after=1#top",
    "HTTPS://TRUSTED.COM/handler",
    "https://trusted.com:443/handler",
  ])("accepts %s", (url) => {
    expect(trusted(url)).toBe(true);
  });

  it.each([
    // Credentials: browsers go to the host after the @, readers see the part before it.
    ["credentials naming the trusted host", "https://trusted.com@evil.com"],
    ["credentials before the trusted host", "https://evil.com@trusted.com"],
    ["a password", "https://user:pass@trusted.com/"],
    ["an encoded slash in the credentials", "https://trusted.com%2F@evil.com"],
    ["an encoded @ in the host", "https://trusted.com%40evil.com"],
    // Scheme tricks.
    ["a scheme-relative URL", "//evil.com"],
    ["a scheme-relative trusted URL", "//trusted.com/handler"],
    ["a scheme without slashes", "https:evil.com"],
    ["a trusted host without slashes", "https:trusted.com"],
    ["a scheme with one slash", "https:/trusted.com"],
    ["javascript:", "javascript:alert(1)"],
    ["JavaScript: in capitals", "JaVaScRiPt:alert(1)"],
    ["javascript: dressed as a URL", "javascript://trusted.com/%0aalert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["file:", "file:///etc/passwd"],
    ["another scheme on the trusted host", "ftp://trusted.com/"],
    ["plain http for an https domain", "http://trusted.com/"],
    // Backslashes, which browsers read as slashes.
    ["a backslash before an @", "https://trusted.com\\@evil.com"],
    ["a backslash after the host", "https://trusted.com\\.evil.com"],
    ["backslashes for slashes", "https:\\\\evil.com"],
    ["a slash and a backslash", "https:/\\evil.com"],
    // Whitespace and control characters, which URL parsers strip or reject differently.
    ["a leading space", " https://trusted.com"],
    ["a tab in the host", "https://trus\tted.com"],
    ["a newline in the host", "https://trus\nted.com"],
    ["a null character", "https://trusted.com\u0000.evil.com"],
    // Look-alike hosts.
    ["the trusted domain as a subdomain", "https://trusted.com.evil.com"],
    ["a prefix", "https://eviltrusted.com"],
    ["a subdomain of a non-wildcard domain", "https://sub.trusted.com"],
    ["a trailing dot", "https://trusted.com./"],
    ["an IDN homograph (Armenian ս)", "https://tru\u057Dted.com"],
    ["its punycode", "https://xn--trted-7fe.com"],
    ["a fullwidth dot", "https://trusted\uFF0Ecom.evil.com"],
    ["the host in the path", "https://evil.com/trusted.com"],
    ["the host in the query", "https://evil.com?https://trusted.com"],
    ["the host in the fragment", "https://evil.com#https://trusted.com"],
    // Ports.
    ["another port", "https://trusted.com:8443/"],
    ["port 80 on https", "https://trusted.com:80/"],
    // Not absolute or not a URL.
    ["a relative path (no base origin given)", "/handler/magic-link-callback"],
    ["an empty string", ""],
    ["not a URL", "trusted.com"],
  ])("refuses %s", (_, url) => {
    expect(trusted(url)).toBe(false);
  });

  it("takes relative paths only with a base origin, and only on that origin", () => {
    const base = { baseOrigin: "https://trusted.com" };
    expect(trusted("/handler/x?y=1", base)).toBe(true);
    expect(trusted("//evil.com/x", base)).toBe(false);
    expect(trusted("/\\evil.com", base)).toBe(false);
    expect(trusted("\\\\evil.com", base)).toBe(false);
  });
});

describe("base paths", () => {
  const underApp = (url: string) => isRedirectUrlTrusted(url, { trustedDomains: ["https://trusted.com/app"], allowLocalhost: false });

  it("trusts the path and below it, in whole segments", () => {
    expect(underApp("https://trusted.com/app")).toBe(true);
    expect(underApp("https://trusted.com/app/handler?x=1")).toBe(true);
    expect(underApp("https://trusted.com/application")).toBe(false);
    expect(underApp("https://trusted.com/")).toBe(false);
  });

  it("reads dot segments as the browser does before comparing", () => {
    expect(underApp("https://trusted.com/app/../admin")).toBe(false);
    expect(underApp("https://trusted.com/app/%2e%2e/admin")).toBe(false);
    expect(underApp("https://trusted.com/other/../app/x")).toBe(true);
  });
});

describe("wildcard trusted domains (SPEC.md §5)", () => {
  const wild = (url: string, domain: string) => isRedirectUrlTrusted(url, { trustedDomains: [domain], allowLocalhost: false });

  it("* stands for exactly one label", () => {
    expect(wild("https://a.wild.com/x", "https://*.wild.com")).toBe(true);
    expect(wild("https://a-b-1.wild.com", "https://*.wild.com")).toBe(true);
    expect(wild("https://wild.com", "https://*.wild.com")).toBe(false);
    expect(wild("https://a.b.wild.com", "https://*.wild.com")).toBe(false);
    expect(wild("https://evilwild.com", "https://*.wild.com")).toBe(false);
    expect(wild("https://a.wild.com.evil.com", "https://*.wild.com")).toBe(false);
    expect(wild("https://evil.com/.wild.com", "https://*.wild.com")).toBe(false);
    expect(wild("https://a.wild.com@evil.com", "https://*.wild.com")).toBe(false);
  });

  it("* inside a label matches only within it", () => {
    expect(wild("https://api-1.corp.com", "https://api-*.corp.com")).toBe(true);
    expect(wild("https://api-.corp.com", "https://api-*.corp.com")).toBe(false);
    expect(wild("https://api-1.x.corp.com", "https://api-*.corp.com")).toBe(false);
    expect(wild("https://xapi-1.corp.com", "https://api-*.corp.com")).toBe(false);
  });

  it("** stands for one or more labels", () => {
    expect(wild("https://a.deep.com", "https://**.deep.com")).toBe(true);
    expect(wild("https://a.b.c.deep.com", "https://**.deep.com")).toBe(true);
    expect(wild("https://deep.com", "https://**.deep.com")).toBe(false);
    expect(wild("https://evildeep.com", "https://**.deep.com")).toBe(false);
    expect(wild("https://deep.com.evil.com", "https://**.deep.com")).toBe(false);
  });

  it("keeps the domain's protocol, port and base path", () => {
    expect(wild("https://a.wild.com:8443/app/x", "https://*.wild.com:8443/app")).toBe(true);
    expect(wild("https://a.wild.com/app/x", "https://*.wild.com:8443/app")).toBe(false);
    expect(wild("http://a.wild.com:8443/app/x", "https://*.wild.com:8443/app")).toBe(false);
    expect(wild("https://a.wild.com:8443/application", "https://*.wild.com:8443/app")).toBe(false);
  });

  it("ignores invalid trusted domains instead of trusting anything", () => {
    for (const domain of ["https://*.evil..com", "https://.trusted.com", "https://trusted.com.", "javascript:alert(1)", "https://user@trusted.com", "https://trusted.com:*", "https://trusted.com/*", "trusted.com", "https://tr_usted.*.com!"]) {
      expect(wild("https://trusted.com/", domain), domain).toBe(false);
      expect(wild("https://a.trusted.com/", domain), domain).toBe(false);
    }
  });

  it("matches host patterns without regular-expression surprises", () => {
    expect(matchHostnamePattern("a.b.com", "a.b.com")).toBe(true);
    expect(matchHostnamePattern("a.b.com", "axb.com")).toBe(false);
    expect(matchHostnamePattern("*.b.com", "a.bxcom")).toBe(false);
    expect(matchHostnamePattern("*.b.com", "a.b.com")).toBe(true);
  });
});

describe("localhost", () => {
  const local = (url: string, allowLocalhost: boolean) => isRedirectUrlTrusted(url, { trustedDomains: [], allowLocalhost });

  it("is trusted only when the project allows it", () => {
    for (const url of ["http://localhost:3000/handler", "http://localhost/", "https://localhost:8443/x", "http://app.localhost:3000/", "http://127.0.0.1:8080/", "http://127.1.2.3/"]) {
      expect(local(url, true), url).toBe(true);
      expect(local(url, false), url).toBe(false);
    }
  });

  it("is not fooled by hosts that only start like localhost", () => {
    for (const url of ["http://localhost.evil.com/", "http://localhostevil.com/", "http://127.0.0.1.nip.io/", "http://evil.com/localhost", "http://localhost@evil.com/", "http://evil.com@localhost/", "javascript://localhost/%0aalert(1)"]) {
      expect(local(url, true), url).toBe(false);
    }
  });

  it("recognises the forms SPEC.md §5 lists", () => {
    expect(isLocalhost("http://localhost:3000")).toBe(true);
    expect(isLocalhost("http://a.b.localhost")).toBe(true);
    expect(isLocalhost("http://127.0.0.1")).toBe(true);
    expect(isLocalhost("http://128.0.0.1")).toBe(false);
    expect(isLocalhost("not a url")).toBe(false);
  });
});

describe("a project's allow-list", () => {
  it("is its trusted domains' base URLs, plus localhost when allowed", () => {
    const config = renderProjectConfig({
      "domains.allowLocalhost": false,
      "domains.trustedDomains.app": { baseUrl: "https://app.example.com", handlerPath: "/handler" },
      "domains.trustedDomains.nothing": { handlerPath: "/handler" },
    });
    expect(isUrlTrustedByProject(config, "https://app.example.com/handler/x")).toBe(true);
    expect(isUrlTrustedByProject(config, "https://evil.com@app.example.com/")).toBe(false);
    expect(isUrlTrustedByProject(config, "http://localhost:3000/")).toBe(false);
    const withLocalhost = renderProjectConfig({ "domains.allowLocalhost": true });
    expect(isUrlTrustedByProject(withLocalhost, "http://localhost:3000/")).toBe(true);
    expect(isUrlTrustedByProject(withLocalhost, "https://app.example.com/")).toBe(false);
  });
});
