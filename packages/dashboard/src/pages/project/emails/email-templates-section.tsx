import type { AdminApp } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { QueryState } from "../../../components/query-state.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { emailKeys } from "./email-queries.js";
import { ThemedEmailEditor } from "./themed-email-editor.js";

/**
 * The project's email templates: the mails Latchkey sends itself (verification, password reset, sign-in
 * code, invitations) as the project changed them, and the project's own for `send-email`. The server saves a
 * template only when it renders.
 */
export function EmailTemplatesSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: emailKeys.templates(projectId), queryFn: () => admin.listEmailTemplates() });
  const [chosenId, setChosenId] = useState<string>();

  return (
    <>
      <SectionIntro title="Templates">
        The emails Latchkey sends for you, and your own, written in TSX. A template is saved only when it renders.
      </SectionIntro>
      <QueryState query={templates} what="the templates">
        {(list) => {
          const picked = pickedItem(list, chosenId);
          return (
            <>
              <EmailItemList
                kind="template"
                items={list}
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
                />
              ) : null}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
