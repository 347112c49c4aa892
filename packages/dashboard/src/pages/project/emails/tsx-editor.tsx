import { javascript } from "@codemirror/lang-javascript";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, basicSetup } from "codemirror";
import { useEffect, useRef } from "react";
import { darkEditorTheme, lightEditorTheme } from "./tsx-editor-theme.js";

/**
 * A TSX code editor (CodeMirror 6) for email themes, templates and drafts. Its own module, loaded lazily by
 * the Emails page, so CodeMirror is only downloaded where code is edited. It is uncontrolled: `initialValue`
 * is read once (remount it with a `key` to edit something else) and every change is reported to `onChange`.
 */
export default function TsxEditor({ initialValue, onChange, label }: { initialValue: string; onChange: (value: string) => void; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const theme = new Compartment();
    const themeFor = (isDark: boolean) => (isDark ? darkEditorTheme : lightEditorTheme);
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initialValue,
        extensions: [
          basicSetup,
          javascript({ jsx: true, typescript: true }),
          theme.of(themeFor(dark.matches)),
          EditorView.lineWrapping,
          // The editable element is what a screen reader lands on: name it.
          EditorView.contentAttributes.of({ "aria-label": label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    const followScheme = (event: MediaQueryListEvent) => view.dispatch({ effects: theme.reconfigure(themeFor(event.matches)) });
    dark.addEventListener("change", followScheme);
    return () => {
      dark.removeEventListener("change", followScheme);
      view.destroy();
    };
    // The editor is created once per mount; `label` and `initialValue` changes need a new key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <div ref={host} className="emails-code-editor" />;
}
