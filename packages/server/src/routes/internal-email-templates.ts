import { KnownErrors } from "@latchkey/protocol/errors";
import {
  emailCreatedResponse,
  emailTemplateCreateBody,
  emailTemplateIdParams,
  emailTemplateListResponse,
  emailTemplateRead,
  emailTemplateUpdateBody,
  emailTemplateUpdated,
  successResponse,
} from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { emailConfigOf } from "../services/email-config-edits.js";
import { renderEmailPreview, themeSourceFor } from "../services/email-preview.js";
import {
  createEmailTemplate,
  deleteEmailTemplate,
  listEmailTemplates,
  planEmailTemplateUpdate,
  readEmailTemplate,
  updateEmailTemplate,
  type EmailTemplateUpdate,
} from "../services/email-templates.js";

const TAGS = ["Emails"];
const ADMIN = ["admin"] as const;

/**
 * `/internal/email-templates` (admin, issue 19): the TSX templates of a project's mails, kept in its config
 * (`emails.templates`). The built-in ones, one per transactional mail with the protocol's ids, are always listed;
 * a project's change to one is an override of its entry. An unknown id is a plain 404. The DELETE is ours
 * (the reference cannot delete a template): it removes a project's own template, never a built-in one.
 */
export const internalEmailTemplatesRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/email-templates",
    summary: "List the project's email templates",
    description: "The built-in templates (as the project changed them) and the project's own. `theme_id` is absent for the selected theme, `false` for none.",
    tags: TAGS,
    access: ADMIN,
    response: { description: "The templates.", schema: emailTemplateListResponse },
    handler: (_c, { auth }) => ({ templates: listEmailTemplates(auth.project) }),
  }),
  defineRoute({
    method: "post",
    path: "/internal/email-templates",
    summary: "Create an email template",
    description: "The new template starts from a short example with a subject; send it with `POST /emails/send-email` `template_id`.",
    tags: TAGS,
    access: ADMIN,
    request: { body: emailTemplateCreateBody },
    response: { description: "The new template's id.", schema: emailCreatedResponse },
    handler: (c, { auth, body }) => createEmailTemplate(c.get("deps").db, auth.project.id, body.display_name),
  }),
  defineRoute({
    method: "get",
    path: "/internal/email-templates/:id",
    summary: "Read an email template",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailTemplateIdParams },
    response: { description: "The template with its TSX source.", schema: emailTemplateRead },
    handler: (_c, { auth, params }) => readEmailTemplate(auth.project, params.id),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/email-templates/:id",
    summary: "Change an email template",
    description:
      "Sets its TSX source, theme (`theme_id`: a theme, `false` for none, null or absent for the selected theme; absent in a rename alone: unchanged) and/or name. " +
      "The template is rendered first, with its preview variables: if that fails, EMAIL_RENDERING_ERROR says why and nothing changes; " +
      "otherwise it is saved and the answer is the rendered HTML. A theme the project does not have is a 400. As in the protocol, " +
      "templates can be changed only while the project sends mail through its own email server (REQUIRES_CUSTOM_EMAIL_SERVER).",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailTemplateIdParams, body: emailTemplateUpdateBody },
    response: { description: "The saved template, rendered.", schema: emailTemplateUpdated },
    errors: [KnownErrors.RequiresCustomEmailServer, KnownErrors.EmailRenderingError],
    handler: async (c, { auth, params, body }) => {
      // As the reference: a new source without `theme_id` puts the template back on the selected theme. A rename
      // alone (Latchkey's addition) leaves the theme as it was.
      const themeId = body.theme_id === undefined && body.tsx_source !== undefined ? null : body.theme_id;
      const update: EmailTemplateUpdate = { displayName: body.display_name, tsxSource: body.tsx_source, themeId };
      const emails = emailConfigOf(auth.project);
      if (emails.server.isShared) throw new KnownErrors.RequiresCustomEmailServer();
      const next = planEmailTemplateUpdate(emails, params.id, update);
      const rendered = await renderEmailPreview(auth.project, { themeSource: themeSourceFor(emails, next.themeId), templateSource: next.tsxSource });
      await updateEmailTemplate(c.get("deps").db, auth.project.id, params.id, update);
      return { rendered_html: rendered.html };
    },
  }),
  defineRoute({
    method: "delete",
    path: "/internal/email-templates/:id",
    summary: "Delete an email template",
    description:
      "Latchkey's addition: deletes one of the project's own templates. The built-in templates, which the transactional mails " +
      "use, cannot be deleted (400), as with the built-in themes.",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailTemplateIdParams },
    response: { description: "Deleted.", schema: successResponse },
    handler: async (c, { auth, params }) => {
      await deleteEmailTemplate(c.get("deps").db, auth.project.id, params.id);
      return { success: true } as const;
    },
  }),
];
