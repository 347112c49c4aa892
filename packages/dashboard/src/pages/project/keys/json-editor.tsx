import { json } from "@codemirror/lang-json";
import { Compartment, EditorState } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { placeholder as placeholderText } from "@codemirror/view";
import { EditorView, minimalSetup } from "codemirror";
import { useEffect, useRef } from "react";

const DARK = "(prefers-color-scheme: dark)";

/**
 * One Dark on the dashboard's darker dark background: on One Dark's own (#282c34) its property names miss
 * the 4.5:1 contrast of WCAG AA. Listed before `oneDark`, so it takes precedence.
 */
const darkBackground = EditorView.theme({ "&": { backgroundColor: "var(--dash-bg)" }, ".cm-gutters": { backgroundColor: "var(--dash-bg)" } }, { dark: true });

/** The placeholder in the page's muted text colour (CodeMirror's own grey misses 4.5:1 on white). */
const mutedPlaceholder = EditorView.theme({ ".cm-placeholder": { color: "var(--dash-muted)" } });

/**
 * A JSON editor (CodeMirror 6) that follows the page's light or dark scheme. It is uncontrolled after its
 * first render: `initialValue` seeds it and `onChange` reports every edit. `labelledBy` names it for
 * screen readers (its content is a textbox). `placeholder` shows while it is empty (and is its
 * `aria-placeholder`: CodeMirror hides the shown one from screen readers).
 */
export function JsonEditor({
  initialValue,
  onChange,
  labelledBy,
  describedBy,
  placeholder,
}: {
  initialValue: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
  placeholder?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const theme = new Compartment();
    const media = window.matchMedia(DARK);
    const themeFor = (dark: boolean) => (dark ? [darkBackground, oneDark] : []);
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initialValue,
        extensions: [
          minimalSetup,
          json(),
          EditorView.lineWrapping,
          mutedPlaceholder,
          placeholder ? placeholderText(placeholder) : [],
          theme.of(themeFor(media.matches)),
          EditorView.contentAttributes.of({
            "aria-labelledby": labelledBy,
            ...(describedBy ? { "aria-describedby": describedBy } : {}),
            ...(placeholder ? { "aria-placeholder": placeholder } : {}),
            "aria-multiline": "true",
            // Already a tab stop (contenteditable); said outright so that axe sees the scroll box of a long
            // document (the Config page's) as reachable by keyboard.
            tabindex: "0",
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    // `data-scheme` says which theme the editor shows (the page's CSS switches at once, the editor on the event).
    host.current!.dataset.scheme = media.matches ? "dark" : "light";
    const follow = (event: MediaQueryListEvent) => {
      view.dispatch({ effects: theme.reconfigure(themeFor(event.matches)) });
      host.current!.dataset.scheme = event.matches ? "dark" : "light";
    };
    media.addEventListener("change", follow);
    return () => {
      media.removeEventListener("change", follow);
      view.destroy();
    };
    // The editor is created once; later `initialValue`s do not replace what the person typed.
  }, []);

  return <div ref={host} className="config-editor" />;
}
