import type { AdminApp } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { QueryState } from "../../../components/query-state.js";
import { EmailCodeEditor } from "./email-code-editor.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { emailKeys, themeChoiceFromValue, themeChoiceToValue, useEmailThemes } from "./email-queries.js";

/**
 * The project's email templates: the mails Latchkey sends itself (verification, password reset, sign-in
 * code, invitations) as the project changed them, and the project's own for `send-email`. The server saves a
 * template only when it renders.
 */
export function EmailTemplatesSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: emailKeys.templates(projectId), queryFn: () => admin.listEmailTemplates() });
  const themes = useEmailThemes(admin, projectId);
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
                <QueryState query={themes} what="the themes">
                  {(themeList) => (
                    <EmailCodeEditor
                      key={picked.id}
                      admin={admin}
                      kind="template"
                      initial={{ displayName: picked.displayName, tsxSource: picked.tsxSource, themeValue: themeChoiceToValue(picked.themeId) }}
                      themes={themeList}
                      previewRequest={(values) => ({ templateTsxSource: values.tsxSource, themeId: themeChoiceFromValue(values.themeValue) ?? undefined })}
                      onSave={async (values) => {
                        await admin.updateEmailTemplate(picked.id, {
                          displayName: values.displayName,
                          tsxSource: values.tsxSource,
                          themeId: themeChoiceFromValue(values.themeValue),
                        });
                        await queryClient.invalidateQueries({ queryKey: emailKeys.templates(projectId) });
                      }}
                    />
                  )}
                </QueryState>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
