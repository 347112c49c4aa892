/**
 * The Emails page's address: `?tab=` names the open tab and `?item=` the theme, template or draft open in it,
 * so a reload or a shared link opens the same one, and picking another goes through the router (which asks
 * before an editor with unsaved changes is left).
 * Kept apart from the page (and free of libraries) because the router, in the first page's code, reads it.
 */
export const EMAIL_TAB_IDS = ["server", "templates", "themes", "drafts", "sent"] as const;

export type EmailTabId = (typeof EMAIL_TAB_IDS)[number];

export interface EmailsSearch {
  /** Absent: the first tab, the email server. */
  tab?: EmailTabId | undefined;
  /** The id of the theme, template or draft open in the tab; absent: the first one. */
  item?: string | undefined;
}

const ITEM_ID = /^[0-9a-f-]{36}$/i;

/**
 * The route's `validateSearch`: an unknown or missing tab is the first one (and stays out of the address).
 * Both are always returned, undefined too: the router lays the result over the raw parameters.
 */
export function emailsSearch(search: Record<string, unknown>): EmailsSearch {
  const tab = EMAIL_TAB_IDS.find((id) => id === search.tab);
  const item = typeof search.item === "string" && ITEM_ID.test(search.item) ? search.item.toLowerCase() : undefined;
  return { tab: tab === "server" ? undefined : tab, item };
}
