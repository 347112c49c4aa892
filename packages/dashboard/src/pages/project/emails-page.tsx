import { useNavigate, useSearch } from "@tanstack/react-router";
import { useId } from "react";
import { PageTabs, tabPanelProps } from "../../components/page-tabs.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { EmailDraftsSection } from "./emails/email-drafts-section.js";
import { EmailServerSection } from "./emails/email-server-section.js";
import { EmailTemplatesSection } from "./emails/email-templates-section.js";
import { EmailThemesSection } from "./emails/email-themes-section.js";
import type { EmailTabId } from "./emails/emails-search.js";
import { SentEmailLog } from "./emails/sent-email-log.js";
import "./emails/emails.css";

const TABS: readonly { id: EmailTabId; label: string; Section: typeof EmailServerSection }[] = [
  { id: "server", label: "Email server", Section: EmailServerSection },
  { id: "templates", label: "Templates", Section: EmailTemplatesSection },
  { id: "themes", label: "Themes", Section: EmailThemesSection },
  { id: "drafts", label: "Drafts", Section: EmailDraftsSection },
  { id: "sent", label: "Sent", Section: SentEmailLog },
];

/**
 * The project's Emails page: its email server, the themes, templates and drafts written in TSX (with a live
 * preview), sending a draft, and the log of sent mail, one tab each (ARIA tabs: arrow keys move between them).
 * The open tab is in the address (`?tab=`), so a reload or a link opens it again.
 */
export function EmailsPage() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const id = useId();
  const current = useSearch({ from: "/projects/$projectId/emails" }).tab ?? "server";
  const navigate = useNavigate({ from: "/projects/$projectId/emails" });
  // Replaced, not pushed: Back leaves the page rather than stepping through its tabs.
  const setCurrent = (tab: EmailTabId) => void navigate({ search: tab === "server" ? {} : { tab }, replace: true });
  const active = TABS.find((tab) => tab.id === current)!;

  return (
    <>
      <PageTabs idPrefix={id} title="Emails" label="Email settings" tabs={TABS} current={current} onSelect={setCurrent} />
      <section className="dashboard-card emails-panel" {...tabPanelProps(id, current)}>
        <active.Section key={active.id} admin={admin} projectId={projectId} />
      </section>
    </>
  );
}
