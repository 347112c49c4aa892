import type { AdminApp, EmailThemeSummary } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { adminProjectKey } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { EmailCodeEditor } from "./email-code-editor.js";
import { EmailItemList, SectionIntro, pickedItem } from "./email-item-list.js";
import { BUILT_IN_THEME_IDS, emailKeys, useEmailThemes } from "./email-queries.js";
import { useChosenEmailItem } from "./use-chosen-item.js";

/** What a theme is previewed around: a short mail that shows the theme's frame. */
const SAMPLE_TEMPLATE = `import { Subject } from "@stackframe/emails";

export function EmailTemplate() {
  return (
    <>
      <Subject value="A sample email" />
      <p>This is how your emails look in this theme.</p>
    </>
  );
}
`;

/**
 * The project's email themes: the TSX frame every template and draft is wrapped in. Built-in themes can be
 * changed but not deleted; one theme is the project's, used by everything that names none.
 */
export function EmailThemesSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  const queryClient = useQueryClient();
  const themes = useEmailThemes(admin, projectId);
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
  const [chosenId, setChosenId] = useChosenEmailItem();
  const projectThemeId = project.data?.config.email_theme;

  const remove = useConfirmedAction({
    action: (theme: EmailThemeSummary) => admin.deleteEmailTheme(theme.id),
    onDone: () => queryClient.invalidateQueries({ queryKey: emailKeys.all(projectId) }),
  });
  const makeProjectTheme = useMutation({
    mutationFn: (id: string) => admin.updateAdminProject({ config: { email_theme: id } }),
    onSuccess: (updated) => queryClient.setQueryData(adminProjectKey(projectId), updated),
  });

  return (
    <>
      <SectionIntro title="Themes">A theme is the frame around every email: its layout, colours and footer, written in TSX.</SectionIntro>
      <QueryState query={themes} what="the themes">
        {(list) => {
          const picked = pickedItem(list, chosenId);
          return (
            <>
              <EmailItemList
                kind="theme"
                items={list.map((theme) => ({
                  ...theme,
                  note: [theme.id === projectThemeId ? "The project's theme" : "", BUILT_IN_THEME_IDS.includes(theme.id) ? "Built in" : ""].filter(Boolean).join(", ") || undefined,
                }))}
                selectedId={picked?.id}
                onSelect={setChosenId}
                onCreate={async (displayName) => {
                  const { id } = await admin.createEmailTheme(displayName);
                  await queryClient.invalidateQueries({ queryKey: emailKeys.themes(projectId) });
                  return id;
                }}
              />
              {picked ? (
                <ThemeEditor key={picked.id} admin={admin} projectId={projectId} themeId={picked.id}>
                  {picked.id === projectThemeId ? null : (
                    <button type="button" className="dashboard-secondary" disabled={makeProjectTheme.isPending} onClick={() => makeProjectTheme.mutate(picked.id)}>
                      Use as the project's theme
                    </button>
                  )}
                  {BUILT_IN_THEME_IDS.includes(picked.id) ? null : (
                    <button type="button" className="dashboard-danger" onClick={() => remove.ask(picked)}>
                      Delete theme
                    </button>
                  )}
                </ThemeEditor>
              ) : null}
              <FailureAlert action="change the project's theme" error={makeProjectTheme.error} />
              <ConfirmDialog {...remove.dialog} title={`Delete the theme “${remove.pending?.displayName ?? ""}”?`} confirmLabel="Delete theme">
                <p>Templates and drafts that use it will use the project's theme instead.</p>
              </ConfirmDialog>
            </>
          );
        }}
      </QueryState>
    </>
  );
}

function ThemeEditor({ admin, projectId, themeId, children }: { admin: AdminApp; projectId: string; themeId: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const theme = useQuery({ queryKey: emailKeys.theme(projectId, themeId), queryFn: () => admin.getEmailTheme(themeId) });
  return (
    <QueryState query={theme} what="the theme">
      {(loaded) => (
        <EmailCodeEditor
          admin={admin}
          kind="theme"
          initial={{ displayName: loaded.displayName, tsxSource: loaded.tsxSource, themeValue: "" }}
          previewRequest={(values) => ({ themeTsxSource: values.tsxSource, templateTsxSource: SAMPLE_TEMPLATE })}
          onSave={async (values) => {
            await admin.updateEmailTheme(themeId, { displayName: values.displayName, tsxSource: values.tsxSource });
            queryClient.setQueryData(emailKeys.theme(projectId, themeId), { displayName: values.displayName, tsxSource: values.tsxSource });
            await queryClient.invalidateQueries({ queryKey: emailKeys.themes(projectId), exact: true });
          }}
          actions={children}
        />
      )}
    </QueryState>
  );
}
