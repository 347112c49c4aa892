import type { AdminApp } from "@latchkey/core";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { SectionIntro } from "./email-item-list.js";
import { emailKeys } from "./email-queries.js";

/** Every mail the project sent, newest first: to whom, what, when, and whether it went out or why not. */
export function SentEmailLog({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const sent = useQuery({ queryKey: emailKeys.sent(projectId), queryFn: () => admin.listSentEmails() });
  return (
    <>
      <SectionIntro title="Sent emails">Every email the project sent, newest first, with the error of each one that could not be delivered.</SectionIntro>
      <div className="dashboard-actions">
        <button type="button" className="dashboard-secondary" disabled={sent.isFetching} onClick={() => void sent.refetch()}>
          {sent.isFetching ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <QueryState query={sent} what="the sent emails" isEmpty={(list) => list.length === 0} empty={<p>No emails sent yet.</p>}>
        {(list) => (
          <SimpleTable columns={["Recipient", "Subject", "Sent", "Status"]} region="Sent emails">
            {list.map((mail) => (
              <tr key={mail.id}>
                <td>{mail.to.join(", ")}</td>
                <td>{mail.subject}</td>
                <td>
                  <time dateTime={mail.sentAt.toISOString()}>{mail.sentAt.toLocaleString()}</time>
                </td>
                <td>{mail.error ? <span className="dashboard-error">Failed: {mail.error}</span> : mail.sender.type === "shared" ? "Sent (shared server)" : "Sent"}</td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
    </>
  );
}
