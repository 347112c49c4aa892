import type { EmailDraftRead, EmailTemplateRead } from "@latchkey/protocol/schemas";
import {
  emailDraftFromWire,
  emailDraftUpdateToWire,
  emailTemplateFromWire,
  type EmailDraft,
  type EmailDraftCreate,
  type EmailDraftUpdate,
  type EmailPreview,
  type EmailPreviewRequest,
  type EmailTemplate,
  type EmailTemplateUpdate,
  type EmailTheme,
  type EmailThemeSummary,
} from "../wire/emails-as-code.js";
import type { AppContext } from "./app-context.js";

/** Who gets a mail and what it is: exactly one of `userIds` / `allUsers`, and one of `html`, `templateId`, `draftId`. */
export interface SendEmailOptions {
  userIds?: string[];
  allUsers?: true;
  subject?: string;
  html?: string;
  templateId?: string;
  variables?: Record<string, unknown>;
  draftId?: string;
  /** A theme, `false` for none; absent: the template's or draft's own (written HTML: none). */
  themeId?: string | false | null;
  notificationCategoryName?: string;
}

/**
 * An admin app's emails as code (issue 19): the project's themes, templates and drafts, and previews, for an
 * editor with a live preview. Every call is the project admin's (`/internal/email-*`, `/emails/render-email`).
 */
export function adminEmailActions(ctx: AppContext) {
  const admin = <T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) => ctx.call<T>({ method, path, body, session: null });
  const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

  return {
    /** The built-in themes ("Default Light", "Default Dark") and the project's own. */
    async listEmailThemes(): Promise<EmailThemeSummary[]> {
      const { themes } = await admin<{ themes: { id: string; display_name: string }[] }>("GET", "/internal/email-themes");
      return themes.map((theme) => ({ id: theme.id, displayName: theme.display_name }));
    },

    /** A new theme, starting from the "Default Light" source. */
    async createEmailTheme(displayName: string): Promise<{ id: string }> {
      return admin("POST", "/internal/email-themes", { display_name: displayName });
    },

    async getEmailTheme(id: string): Promise<EmailTheme> {
      const wire = await admin<{ display_name: string; tsx_source: string }>("GET", at("/internal/email-themes", id));
      return { displayName: wire.display_name, tsxSource: wire.tsx_source };
    },

    async updateEmailTheme(id: string, update: { displayName?: string; tsxSource?: string }): Promise<{ displayName: string }> {
      const wire = await admin<{ display_name: string }>("PATCH", at("/internal/email-themes", id), { display_name: update.displayName, tsx_source: update.tsxSource });
      return { displayName: wire.display_name };
    },

    /** Built-in themes cannot be deleted; what used the theme goes back to the selected theme. */
    async deleteEmailTheme(id: string): Promise<void> {
      await admin("DELETE", at("/internal/email-themes", id));
    },

    /** The built-in templates (one per transactional mail, as the project changed them) and the project's own. */
    async listEmailTemplates(): Promise<EmailTemplate[]> {
      const { templates } = await admin<{ templates: EmailTemplateRead[] }>("GET", "/internal/email-templates");
      return templates.map(emailTemplateFromWire);
    },

    async getEmailTemplate(id: string): Promise<EmailTemplate> {
      return emailTemplateFromWire(await admin<EmailTemplateRead>("GET", at("/internal/email-templates", id)));
    },

    async createEmailTemplate(displayName: string): Promise<{ id: string }> {
      return admin("POST", "/internal/email-templates", { display_name: displayName });
    },

    /** Saves the template if it renders, and answers the rendered preview; a template that fails is not saved. */
    async updateEmailTemplate(id: string, update: EmailTemplateUpdate): Promise<{ renderedHtml: string }> {
      const wire = await admin<{ rendered_html: string }>("PATCH", at("/internal/email-templates", id), {
        display_name: update.displayName,
        tsx_source: update.tsxSource,
        theme_id: update.themeId,
      });
      return { renderedHtml: wire.rendered_html };
    },

    /**
     * Deletes one of the project's own templates (Latchkey's addition; the reference has no such call). The
     * built-in templates cannot be deleted: the server answers 400.
     */
    async deleteEmailTemplate(id: string): Promise<void> {
      await admin("DELETE", at("/internal/email-templates", id));
    },

    async listEmailDrafts(): Promise<EmailDraft[]> {
      const { drafts } = await admin<{ drafts: EmailDraftRead[] }>("GET", "/internal/email-drafts");
      return drafts.map(emailDraftFromWire);
    },

    async getEmailDraft(id: string): Promise<EmailDraft> {
      return emailDraftFromWire(await admin<EmailDraftRead>("GET", at("/internal/email-drafts", id)));
    },

    async createEmailDraft(input: EmailDraftCreate): Promise<{ id: string }> {
      return admin("POST", "/internal/email-drafts", { display_name: input.displayName, theme_id: input.themeId, tsx_source: input.tsxSource });
    },

    /** Changes the given fields (the server answers no draft: `getEmailDraft` reads it again). */
    async updateEmailDraft(id: string, update: EmailDraftUpdate): Promise<void> {
      await admin("PATCH", at("/internal/email-drafts", id), emailDraftUpdateToWire(update));
    },

    async deleteEmailDraft(id: string): Promise<void> {
      await admin("DELETE", at("/internal/email-drafts", id));
    },

    /**
     * Sends mail to users (`POST /emails/send-email`; the project needs its own SMTP server): written `html`, a
     * template with `variables`, or a draft (then marked sent). Every addressed user is listed, with the address
     * the mail went to (absent when they have none).
     */
    async sendEmail(options: SendEmailOptions): Promise<{ userId: string; userEmail?: string }[]> {
      const { results } = await admin<{ results: { user_id: string; user_email?: string }[] }>("POST", "/emails/send-email", {
        user_ids: options.userIds,
        all_users: options.allUsers,
        subject: options.subject,
        html: options.html,
        template_id: options.templateId,
        variables: options.variables,
        draft_id: options.draftId,
        theme_id: options.themeId,
        notification_category_name: options.notificationCategoryName,
      });
      return results.map((r) => ({ userId: r.user_id, ...(r.user_email !== undefined ? { userEmail: r.user_email } : {}) }));
    },

    /** Renders a theme around a template without saving anything (the editor's live preview). */
    async renderEmailPreview(request: EmailPreviewRequest): Promise<EmailPreview> {
      const wire = await admin<{ html: string; subject?: string; notification_category?: string }>("POST", "/emails/render-email", {
        theme_id: request.themeId,
        theme_tsx_source: request.themeTsxSource,
        template_id: request.templateId,
        template_tsx_source: request.templateTsxSource,
        variables: request.variables,
      });
      return {
        html: wire.html,
        ...(wire.subject !== undefined ? { subject: wire.subject } : {}),
        ...(wire.notification_category !== undefined ? { notificationCategory: wire.notification_category } : {}),
      };
    },
  };
}
