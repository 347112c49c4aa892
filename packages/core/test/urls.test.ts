import { describe, expect, it } from "vitest";
import { assertRedirectTrusted, isRelativeUrl, resolveUrls, withReturnTarget } from "../src/urls.js";

describe("app URLs (SPEC §2)", () => {
  it("defaults the handler pages under /handler and chains the after-pages to home", () => {
    const urls = resolveUrls();
    expect(urls).toMatchObject({ handler: "/handler", home: "/", signIn: "/handler/sign-in", signUp: "/handler/sign-up", afterSignIn: "/", afterSignUp: "/", afterSignOut: "/", emailVerification: "/handler/email-verification", mfa: "/handler/mfa" });
    expect(resolveUrls({ home: "/app" })).toMatchObject({ afterSignIn: "/app", afterSignUp: "/app", afterSignOut: "/app" });
    expect(resolveUrls({ afterSignIn: "/dashboard" })).toMatchObject({ afterSignIn: "/dashboard", afterSignUp: "/dashboard", afterSignOut: "/" });
    expect(resolveUrls({ handler: "/auth" }).passwordReset).toBe("/auth/password-reset");
  });

  it("requires the handler path to begin with /", () => {
    expect(() => resolveUrls({ handler: "auth" })).toThrow("The handler path must begin with /");
  });

  it("accepts only relative URLs, the current origin, or listed origins as redirect targets", () => {
    expect(isRelativeUrl("/a?b=c")).toBe(true);
    expect(isRelativeUrl("//evil.example/x")).toBe(false);
    expect(isRelativeUrl("/\\evil.example")).toBe(false);
    expect(isRelativeUrl("javascript:alert(1)")).toBe(false);
    const context = { currentUrl: "https://app.example/handler/sign-in", trustedOrigins: ["https://docs.example"] };
    expect(() => assertRedirectTrusted("https://app.example/x", context)).not.toThrow();
    expect(() => assertRedirectTrusted("https://docs.example/x", context)).not.toThrow();
    expect(() => assertRedirectTrusted("https://app.example.evil/x", context)).toThrow("Redirect URL https://app.example.evil/x is not trusted; should be relative.");
    expect(() => assertRedirectTrusted("//evil.example", context)).toThrow("is not trusted");
  });

  it("carries after_auth_return_to to the sign-in page: the page's own, else the page itself", () => {
    expect(withReturnTarget("/handler/sign-in", "https://app.example/settings?tab=2")).toBe("/handler/sign-in?after_auth_return_to=%2Fsettings%3Ftab%3D2");
    expect(withReturnTarget("/handler/sign-up", "https://app.example/handler/sign-in?after_auth_return_to=%2Fcart")).toBe("/handler/sign-up?after_auth_return_to=%2Fcart");
    expect(withReturnTarget("/handler/sign-in", undefined)).toBe("/handler/sign-in");
  });
});
