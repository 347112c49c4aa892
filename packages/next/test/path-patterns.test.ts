import { describe, expect, it } from "vitest";
import { compilePathPattern } from "../src/path-patterns.js";

/** latchkeyProxy's `protect` patterns, written as Next.js's `matcher` writes them. */
describe("protected path patterns", () => {
  const matches = (pattern: string | RegExp, path: string) => compilePathPattern(pattern).test(path);

  it("`/a/:path*` covers /a and everything under it, and nothing that only starts with the same letters", () => {
    for (const path of ["/dashboard", "/dashboard/", "/dashboard/settings", "/dashboard/a/b/c"]) expect(matches("/dashboard/:path*", path), path).toBe(true);
    for (const path of ["/dashboards", "/", "/other/dashboard"]) expect(matches("/dashboard/:path*", path), path).toBe(false);
  });

  it("a plain path is that page only; `:id` is one segment, `:p+` one or more, `:p?` zero or one", () => {
    expect(matches("/settings", "/settings")).toBe(true);
    expect(matches("/settings", "/settings/")).toBe(true);
    expect(matches("/settings", "/settings/profile")).toBe(false);
    expect(matches("/teams/:id", "/teams/42")).toBe(true);
    expect(matches("/teams/:id", "/teams/42/members")).toBe(false);
    expect(matches("/teams/:id", "/teams")).toBe(false);
    expect(matches("/docs/:p+", "/docs")).toBe(false);
    expect(matches("/docs/:p+", "/docs/a/b")).toBe(true);
    expect(matches("/docs/:p?", "/docs")).toBe(true);
    expect(matches("/docs/:p?", "/docs/a/b")).toBe(false);
    expect(matches("/", "/")).toBe(true);
    expect(matches("/", "/a")).toBe(false);
  });

  it("takes dots literally, RegExps as given, and refuses a pattern without a leading slash", () => {
    expect(matches("/file.txt", "/file.txt")).toBe(true);
    expect(matches("/file.txt", "/fileXtxt")).toBe(false);
    expect(matches(/^\/admin/, "/administration")).toBe(true);
    expect(() => compilePathPattern("dashboard")).toThrow(/starts with "\/"/);
  });
});
