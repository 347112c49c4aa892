import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { renderEmailBody, renderEmailResponse, type RenderEmailBody } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { emailConfigOf } from "../services/email-config-edits.js";
import { renderEmailPreview, themeSourceFor } from "../services/email-preview.js";
import { findEmailTemplate } from "../services/email-templates.js";

/**
 * `POST /emails/render-email` (admin, issue 19): the editor's live preview. Nothing is saved; the template gets
 * its `PreviewVariables` with `variables` over them, and a sample user. The body is one of the protocol's four
 * shapes (a template by id or source, a theme by id or source); one that fits none is a SCHEMA_ERROR listing
 * each shape's problems.
 */
export const renderEmailRoutes = [
  defineRoute({
    method: "post",
    path: "/emails/render-email",
    summary: "Render an email preview",
    description:
      "Renders a template (`template_id` or `template_tsx_source`) inside a theme (`theme_id`: a theme, `false` for none, null for the " +
      "project's selected one, absent for the template's own; or `theme_tsx_source`) to HTML, with the subject and notification category the template sets. " +
      "Compile and runtime errors are EMAIL_RENDERING_ERROR with the message (and line) they failed with; an unknown template or " +
      "theme is a 400.",
    tags: ["Emails"],
    access: ["admin"],
    request: { body: renderEmailBody },
    response: { description: "The rendered email.", schema: renderEmailResponse },
    errors: [KnownErrors.EmailRenderingError],
    handler: async (c, { auth, body: parsed }) => {
      const body = parsed as RenderEmailBody;
      const emails = emailConfigOf(auth.project);
      let templateSource = body.template_tsx_source;
      let themeId = body.theme_id;
      if (body.template_id !== undefined) {
        const template = findEmailTemplate(emails, body.template_id);
        if (!template) throw new HTTPException(400, { message: "No template found with given id" });
        templateSource = template.tsxSource;
        // A stored template renders on its own theme unless the request names one.
        if (themeId === undefined) themeId = template.themeId;
      }
      const themeSource = body.theme_tsx_source ?? themeSourceFor(emails, themeId);
      const rendered = await renderEmailPreview(auth.project, { themeSource, templateSource: templateSource!, variables: body.variables });
      const category = rendered.notificationCategory ? { notification_category: rendered.notificationCategory } : {};
      // 2.8.41's answer has the subject only when the template sets one; 2.8.108's keeps its plain text and subject.
      if (c.get("dialect") === "2.8.108") return { html: rendered.html, text: rendered.text, subject: rendered.subject ?? "", ...category };
      return { html: rendered.html, ...(rendered.subject ? { subject: rendered.subject } : {}), ...category };
    },
  }),
];
