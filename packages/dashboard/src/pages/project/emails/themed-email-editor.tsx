import type { AdminApp, EmailThemeChoice } from "@latchkey/core";
import type { ReactNode } from "react";
import { QueryState } from "../../../components/query-state.js";
import { EmailCodeEditor } from "./email-code-editor.js";
import { themeChoiceFromValue, themeChoiceToValue, useEmailThemes } from "./email-queries.js";

/** What a template or draft saves: its name, its TSX and its theme choice. */
export interface ThemedEmailValues {
  displayName: string;
  tsxSource: string;
  themeId: EmailThemeChoice | null;
}

/**
 * The code editor of a template or a draft: both are a mail in TSX wrapped in a theme of the project's, so
 * both preview the same way and save the same fields. Loads the themes to choose from first.
 */
export function ThemedEmailEditor({
  admin,
  projectId,
  kind,
  item,
  onSave,
  actions,
  children,
}: {
  admin: AdminApp;
  projectId: string;
  kind: "template" | "draft";
  item: { displayName: string; tsxSource: string; themeId?: EmailThemeChoice };
  onSave: (values: ThemedEmailValues) => Promise<unknown>;
  actions?: ReactNode;
  children?: (changed: boolean) => ReactNode;
}) {
  const themes = useEmailThemes(admin, projectId);
  return (
    <QueryState query={themes} what="the themes">
      {(themeList) => (
        <EmailCodeEditor
          admin={admin}
          kind={kind}
          initial={{ displayName: item.displayName, tsxSource: item.tsxSource, themeValue: themeChoiceToValue(item.themeId) }}
          themes={themeList}
          previewRequest={(values) => ({ templateTsxSource: values.tsxSource, themeId: themeChoiceFromValue(values.themeValue) ?? undefined })}
          onSave={(values) => onSave({ displayName: values.displayName, tsxSource: values.tsxSource, themeId: themeChoiceFromValue(values.themeValue) })}
          actions={actions}
        >
          {children}
        </EmailCodeEditor>
      )}
    </QueryState>
  );
}
