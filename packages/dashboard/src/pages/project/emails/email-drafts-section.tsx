import type { AdminApp } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { EmailCodeEditor } from "./email-code-editor.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { emailKeys, themeChoiceFromValue, themeChoiceToValue, useEmailThemes } from "./email-queries.js";
import { SendDraftForm } from "./send-draft-form.js";

/** The project's drafts: one-off emails written in TSX, previewed, then sent to all users or chosen ones. */
export function EmailDraftsSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const drafts = useQuery({ queryKey: emailKeys.drafts(projectId), queryFn: () => admin.listEmailDrafts() });
  const themes = useEmailThemes(admin, projectId);
  const [chosenId, setChosenId] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: (id: string) => admin.deleteEmailDraft(id),
    onSuccess: async () => {
      setDeleting(false);
      setChosenId(undefined);
      await queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) });
    },
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
                <QueryState query={themes} what="the themes">
                  {(themeList) => (
                    <EmailCodeEditor
                      key={picked.id}
                      admin={admin}
                      kind="draft"
                      initial={{ displayName: picked.displayName, tsxSource: picked.tsxSource, themeValue: themeChoiceToValue(picked.themeId) }}
                      themes={themeList}
                      previewRequest={(values) => ({ templateTsxSource: values.tsxSource, themeId: themeChoiceFromValue(values.themeValue) ?? undefined })}
                      onSave={async (values) => {
                        await admin.updateEmailDraft(picked.id, {
                          displayName: values.displayName,
                          tsxSource: values.tsxSource,
                          themeId: themeChoiceFromValue(values.themeValue),
                        });
                        await queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) });
                      }}
                      actions={
                        <button type="button" className="dashboard-danger" onClick={() => (remove.reset(), setDeleting(true))}>
                          Delete draft
                        </button>
                      }
                    >
                      {(unsaved) => <SendDraftForm admin={admin} projectId={projectId} draft={picked} unsaved={unsaved} />}
                    </EmailCodeEditor>
                  )}
                </QueryState>
              ) : null}
              <ConfirmDialog
                open={deleting && picked !== undefined}
                title={`Delete the draft “${picked?.displayName ?? ""}”?`}
                confirmLabel="Delete draft"
                busy={remove.isPending}
                error={remove.isError ? remove.error.message : null}
                onConfirm={() => picked && remove.mutate(picked.id)}
                onCancel={() => setDeleting(false)}
              />
            </>
          );
        }}
      </QueryState>
    </>
  );
}
