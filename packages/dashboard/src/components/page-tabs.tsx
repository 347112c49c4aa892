import { useRef, type KeyboardEvent } from "react";
import "./page-tabs.css";

export interface PageTab<Id extends string> {
  id: Id;
  label: string;
}

interface PageTabsProps<Id extends string> {
  /** Prefix of the title's, tabs' and panel's element ids (a `useId()`); the panel is `${idPrefix}-panel`. */
  idPrefix: string;
  title: string;
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly PageTab<Id>[];
  current: Id;
  onSelect: (id: Id) => void;
}

/**
 * A page's title card with its ARIA tab list (arrow keys, Home and End move between tabs, as the WAI-ARIA tabs
 * pattern asks). The page renders the tab panel itself, with id `${idPrefix}-panel` and labelled by
 * `${idPrefix}-tab-${current}`: see `tabPanelProps`.
 */
export function PageTabs<Id extends string>({ idPrefix, title, label, tabs, current, onSelect }: PageTabsProps<Id>) {
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});

  function moveWithKeys(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.id === current);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    buttons.current[tab.id]?.focus();
  }

  return (
    <section className="dashboard-card page-tabs-header" aria-labelledby={`${idPrefix}-title`}>
      <h2 id={`${idPrefix}-title`}>{title}</h2>
      <div role="tablist" aria-label={label} className="page-tabs" onKeyDown={moveWithKeys}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={tab.id === current}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
    </section>
  );
}

/** The attributes of the panel that `PageTabs` controls. */
export function tabPanelProps(idPrefix: string, current: string) {
  return { role: "tabpanel", id: `${idPrefix}-panel`, "aria-labelledby": `${idPrefix}-tab-${current}` } as const;
}
