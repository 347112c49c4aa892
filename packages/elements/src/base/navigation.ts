/** Query parameters of the page the element is on. */
export function pageParam(name: string): string | null {
  return new URLSearchParams(location.search).get(name);
}

/**
 * A link to another auth page that keeps the current page's `after_auth_return_to`, so a person who
 * switches from sign-in to sign-up (or to forgot-password) still ends up where they were going.
 */
export function carryReturnTarget(url: string): string {
  const target = pageParam("after_auth_return_to");
  if (!target) return url;
  const next = new URL(url, location.href);
  next.searchParams.set("after_auth_return_to", target);
  return next.origin === location.origin ? next.pathname + next.search + next.hash : next.toString();
}
