import type { AdminApp, EmailDraft } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { emailKeys } from "./email-queries.js";
import { useChosenEmailItem } from "./use-chosen-item.js";
import { SendDraftForm } from "./send-draft-form.js";
import { ThemedEmailEditor } from "./themed-email-editor.js";

/** The project's drafts: one-off emails written in TSX, previewed, then sent to all users or chosen ones. */
export function EmailDraftsSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const drafts = useQuery({ queryKey: emailKeys.drafts(projectId), queryFn: () => admin.listEmailDrafts() });
  const [chosenId, setChosenId] = useChosenEmailItem();
  const remove = useConfirmedAction({
    action: (draft: EmailDraft) => admin.deleteEmailDraft(draft.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) }),
  });

  return (
    <>
      <SectionIntro title="Drafts">One-off emails to your users, such as announcements: write one, preview it, then send it.</SectionIntro>
      <QueryState query={drafts} what="the drafts">
        {(list) => {
          const picked = pickedItem(list, chosenId);
          return (
            <>
              <EmailItemList
                kind="draft"
                items={list.map((draft) => ({ id: draft.id, displayName: draft.displayName, note: draft.sentAt ? "Sent" : undefined }))}
                selectedId={picked?.id}
                onSelect={setChosenId}
                onCreate={async (displayName) => {
                  const { id } = await admin.createEmailDraft({ displayName });
                  await queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) });
                  return id;
                }}
              />
              {picked ? (
                <ThemedEmailEditor
                  key={picked.id}
                  admin={admin}
                  projectId={projectId}
                  kind="draft"
                  item={picked}
                  onSave={async (values) => {
                    await admin.updateEmailDraft(picked.id, values);
                    await queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) });
                  }}
                  actions={
                    <button type="button" className="dashboard-danger" onClick={() => remove.ask(picked)}>
                      Delete draft
                    </button>
                  }
                >
                  {(unsaved) => <SendDraftForm admin={admin} projectId={projectId} draft={picked} unsaved={unsaved} />}
                </ThemedEmailEditor>
              ) : null}
              <ConfirmDialog {...remove.dialog} title={`Delete the draft “${remove.pending?.displayName ?? ""}”?`} confirmLabel="Delete draft" />
            </>
          );
        }}
      </QueryState>
    </>
  );
}
