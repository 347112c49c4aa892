import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Prec } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { EditorView } from "codemirror";
import { tags } from "@lezer/highlight";

/**
 * The code editor's colours, light and dark, readable by WCAG AA (4.5:1). CodeMirror's default light colours
 * are kept except three that are too pale on white (template strings, invalid code, type names); One Dark is
 * kept on a darker background, where its comments and property names reach 4.5:1.
 */
const lightHighlightStyle = HighlightStyle.define([
  { tag: tags.meta, color: "#404740" },
  { tag: tags.link, textDecoration: "underline" },
  { tag: tags.heading, textDecoration: "underline", fontWeight: "bold" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "bold" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.keyword, color: "#708" },
  { tag: [tags.atom, tags.bool, tags.url, tags.contentSeparator, tags.labelName], color: "#219" },
  { tag: [tags.literal, tags.inserted], color: "#164" },
  { tag: [tags.string, tags.deleted], color: "#a11" },
  { tag: [tags.regexp, tags.escape, tags.special(tags.string)], color: "#c2410c" },
  { tag: tags.definition(tags.variableName), color: "#00f" },
  { tag: tags.local(tags.variableName), color: "#30a" },
  { tag: [tags.typeName, tags.namespace], color: "#04703f" },
  { tag: tags.className, color: "#167" },
  { tag: [tags.special(tags.variableName), tags.macroName], color: "#256" },
  { tag: tags.definition(tags.propertyName), color: "#00c" },
  { tag: tags.comment, color: "#940" },
  { tag: tags.invalid, color: "#b91c1c" },
]);

const DARK_BACKGROUND = "#16181d";

export const lightEditorTheme = [
  syntaxHighlighting(lightHighlightStyle),
  EditorView.theme({ ".cm-gutters": { color: "#4b5563", backgroundColor: "#f3f4f6" } }),
];

export const darkEditorTheme = [
  oneDark,
  Prec.highest(
    EditorView.theme(
      {
        "&": { backgroundColor: DARK_BACKGROUND },
        ".cm-gutters": { backgroundColor: DARK_BACKGROUND, color: "#b6bcc6" },
      },
      { dark: true },
    ),
  ),
];
