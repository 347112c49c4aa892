import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { renderEmailBody, renderEmailResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { emailConfigOf } from "../services/email-config-edits.js";
import { renderEmailPreview, themeSourceFor } from "../services/email-preview.js";
import { emailTemplateNotFound, findEmailTemplate } from "../services/email-templates.js";

/**
 * `POST /emails/render-email` (admin, issue 19): the editor's live preview. Nothing is saved; the template gets
 * its `PreviewVariables` with `variables` over them, and a sample user.
 */
export const renderEmailRoutes = [
  defineRoute({
    method: "post",
    path: "/emails/render-email",
    summary: "Render an email preview",
    description:
      "Renders a template (exactly one of `template_id` and `template_tsx_source`) inside a theme (`theme_id`: a theme, `false` for none, " +
      "absent for the project's selected theme; or `theme_tsx_source`) to HTML, plain text and subject. Compile and runtime errors are " +
      "EMAIL_RENDERING_ERROR with the message (and line) they failed with; an unknown template is a 404, an unknown theme a 400.",
    tags: ["Emails"],
    access: ["admin"],
    request: { body: renderEmailBody },
    response: { description: "The rendered email.", schema: renderEmailResponse },
    errors: [KnownErrors.EmailRenderingError],
    handler: async (_c, { auth, body }) => {
      if ((body.template_id === undefined) === (body.template_tsx_source === undefined)) {
        throw new HTTPException(400, { message: "Exactly one of template_id or template_tsx_source must be provided" });
      }
      if (body.theme_tsx_source !== undefined && body.theme_id !== undefined) {
        throw new HTTPException(400, { message: "Only one of theme_id or theme_tsx_source may be provided" });
      }
      const emails = emailConfigOf(auth.project);
      let templateSource = body.template_tsx_source;
      let themeId = body.theme_id;
      if (body.template_id !== undefined) {
        const template = findEmailTemplate(emails, body.template_id);
        if (!template) throw emailTemplateNotFound();
        templateSource = template.tsxSource;
        // A stored template renders on its own theme unless the request names one.
        if (themeId === undefined) themeId = template.themeId;
      }
      const themeSource = body.theme_tsx_source ?? themeSourceFor(emails, themeId);
      const rendered = await renderEmailPreview(auth.project, { themeSource, templateSource: templateSource!, variables: body.variables });
      return {
        html: rendered.html,
        text: rendered.text,
        subject: rendered.subject ?? "",
        ...(rendered.notificationCategory ? { notification_category: rendered.notificationCategory } : {}),
      };
    },
  }),
];
