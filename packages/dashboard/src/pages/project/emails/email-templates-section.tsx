import type { AdminApp, EmailTemplate } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { BUILT_IN_TEMPLATE_IDS, emailKeys } from "./email-queries.js";
import { useChosenEmailItem } from "./use-chosen-item.js";
import { ThemedEmailEditor } from "./themed-email-editor.js";

/**
 * The project's email templates: the mails Latchkey sends itself (verification, password reset, sign-in
 * code, invitations) as the project changed them, and the project's own for `send-email`. The server saves a
 * template only when it renders. The project's own templates can be deleted; the built-in ones cannot.
 */
export function EmailTemplatesSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: emailKeys.templates(projectId), queryFn: () => admin.listEmailTemplates() });
  const [chosenId, setChosenId] = useChosenEmailItem();
  const remove = useConfirmedAction({
    action: (template: EmailTemplate) => admin.deleteEmailTemplate(template.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) }),
  });

  return (
    <>
      <SectionIntro title="Templates">
        The emails Latchkey sends for you, and your own, written in TSX. A template is saved only when it renders, and only
        while the project sends through its own email server (the Email server tab).
      </SectionIntro>
      <QueryState query={templates} what="the templates">
        {(list) => {
          const picked = pickedItem(list, chosenId);
          return (
            <>
              <EmailItemList
                kind="template"
                items={list.map((template) => ({ ...template, note: BUILT_IN_TEMPLATE_IDS.includes(template.id) ? "Built in" : undefined }))}
                selectedId={picked?.id}
                onSelect={setChosenId}
                onCreate={async (displayName) => {
                  const { id } = await admin.createEmailTemplate(displayName);
                  await queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) });
                  return id;
                }}
              />
              {picked ? (
                <ThemedEmailEditor
                  key={picked.id}
                  admin={admin}
                  projectId={projectId}
                  kind="template"
                  item={picked}
                  onSave={async (values) => {
                    await admin.updateEmailTemplate(picked.id, values);
                    await queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) });
                  }}
                  actions={
                    BUILT_IN_TEMPLATE_IDS.includes(picked.id) ? null : (
                      <button type="button" className="dashboard-danger" onClick={() => remove.ask(picked)}>
                        Delete template
                      </button>
                    )
                  }
                />
              ) : null}
              <ConfirmDialog {...remove.dialog} title={`Delete the template “${remove.pending?.displayName ?? ""}”?`} confirmLabel="Delete template">
                <p>Apps that send it by its id will get an error instead.</p>
              </ConfirmDialog>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
