import { Controls, Markdown, Primary, Stories, Subtitle, Title, useOf } from "@storybook/addon-docs/blocks";
import { createElement as h, Fragment, type ReactElement } from "react";

/**
 * The Docs page of an element: Storybook's autodocs page, with two descriptions where Storybook shows one.
 * First the element's own, from the Custom Elements Manifest (its class JSDoc: what it is and does), then the
 * stories file's (what its stories show). Storybook would show only the stories file's when it has one.
 * The API tables (attributes, events, parts, custom properties) come from the manifest too, via `Controls`.
 */
export function ElementDocsPage(): ReactElement {
  const { preparedMeta } = useOf("meta", ["meta"]);
  const { component, parameters } = preparedMeta;
  const docs = parameters.docs as
    | { description?: { component?: string }; extractComponentDescription?: (component: unknown, context: object) => string | null | undefined }
    | undefined;
  const element = docs?.extractComponentDescription?.(component, { component, parameters });
  const stories = docs?.description?.component;
  return h(
    Fragment,
    null,
    h(Title),
    h(Subtitle),
    element ? h(Markdown, null, element) : null,
    stories ? h(Markdown, null, stories) : null,
    h(Primary),
    h(Controls),
    h(Stories),
  );
}
