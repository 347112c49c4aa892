/**
 * A path pattern as Next.js's `matcher` writes them: `/dashboard` (that page), `/dashboard/:path*` (it and
 * everything under it), `/teams/:id` (one segment), `:name+` (one or more segments), `:name?` (zero or one),
 * or a RegExp tested against the pathname.
 */
export type PathPattern = string | RegExp;

export function compilePathPattern(pattern: PathPattern): RegExp {
  if (pattern instanceof RegExp) return pattern;
  if (!pattern.startsWith("/")) throw new Error(`@latchkey/next: a protected path pattern starts with "/" (got ${JSON.stringify(pattern)}).`);
  let source = "";
  for (const segment of pattern.split("/").slice(1)) {
    const parameter = /^:\w+([*+?]?)$/.exec(segment);
    if (!parameter) source += segment === "" ? "" : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    else source += { "": "/[^/]+", "*": "(?:/[^/]+)*", "+": "(?:/[^/]+)+", "?": "(?:/[^/]+)?" }[parameter[1]!];
  }
  // A trailing slash is the same page.
  return new RegExp(`^${source}/?$`);
}
