import { useNavigate, useSearch } from "@tanstack/react-router";

/**
 * The theme, template or draft open in the Emails page's current tab, as named in the address (`?item=`),
 * and a way to open another. Opening one is a navigation, so an editor with unsaved changes asks first.
 */
export function useChosenEmailItem(): [string | undefined, (id: string) => void] {
  const chosenId = useSearch({ from: "/projects/$projectId/emails" }).item;
  const navigate = useNavigate({ from: "/projects/$projectId/emails" });
  return [chosenId, (id) => void navigate({ search: (previous) => ({ ...previous, item: id }), replace: true })];
}
