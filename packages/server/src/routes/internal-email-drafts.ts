import {
  emailDraftCreateBody,
  emailDraftCreated,
  emailDraftIdParams,
  emailDraftListResponse,
  emailDraftRead,
  emailDraftUpdateBody,
  emailDraftUpdated,
  successResponse,
} from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { emailConfigOf } from "../services/email-config-edits.js";
import { createEmailDraft, deleteEmailDraft, listEmailDrafts, readEmailDraft, updateEmailDraft } from "../services/email-drafts.js";
import { checkEmailThemeChoice } from "../services/email-themes.js";

const TAGS = ["Emails"];
const ADMIN = ["admin"] as const;

/**
 * `/internal/email-drafts` (admin, issue 19): one-off TSX mails, sent to many users with `POST /emails/send-email`
 * `draft_id`. `theme_id` names one of the project's themes, `false` for none, absent or null for the selected
 * theme; an unknown theme is a 400, an unknown draft a plain 404.
 */
export const internalEmailDraftsRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/email-drafts",
    summary: "List the project's email drafts",
    description: "Oldest first; `sent_at_millis` is null until the draft is sent.",
    tags: TAGS,
    access: ADMIN,
    response: { description: "The drafts.", schema: emailDraftListResponse },
    handler: async (c, { auth }) => ({ drafts: await listEmailDrafts(c.get("deps").db, auth.project.id) }),
  }),
  defineRoute({
    method: "post",
    path: "/internal/email-drafts",
    summary: "Create an email draft",
    description: "Without `tsx_source` the draft starts from a short example with a subject.",
    tags: TAGS,
    access: ADMIN,
    request: { body: emailDraftCreateBody },
    response: { description: "The new draft's id.", schema: emailDraftCreated },
    handler: (c, { auth, body }) => {
      checkEmailThemeChoice(emailConfigOf(auth.project), body.theme_id);
      return createEmailDraft(c.get("deps").db, auth.project.id, { displayName: body.display_name, themeId: body.theme_id, tsxSource: body.tsx_source });
    },
  }),
  defineRoute({
    method: "get",
    path: "/internal/email-drafts/:id",
    summary: "Read an email draft",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailDraftIdParams },
    response: { description: "The draft.", schema: emailDraftRead },
    handler: (c, { auth, params }) => readEmailDraft(c.get("deps").db, auth.project.id, params.id),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/email-drafts/:id",
    summary: "Change an email draft",
    description: "`theme_id` null returns it to the selected theme; `sent_at_millis` null marks it unsent again.",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailDraftIdParams, body: emailDraftUpdateBody },
    response: { description: "Changed; the protocol answers `{ ok: \"ok\" }`, and a client reads the draft again to see it.", schema: emailDraftUpdated },
    handler: async (c, { auth, params, body }) => {
      checkEmailThemeChoice(emailConfigOf(auth.project), body.theme_id);
      await updateEmailDraft(c.get("deps").db, auth.project.id, params.id, {
        displayName: body.display_name,
        themeId: body.theme_id,
        tsxSource: body.tsx_source,
        sentAt: body.sent_at_millis === undefined ? undefined : body.sent_at_millis === null ? null : new Date(body.sent_at_millis),
      });
      return { ok: "ok" } as const;
    },
  }),
  defineRoute({
    method: "delete",
    path: "/internal/email-drafts/:id",
    summary: "Delete an email draft",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailDraftIdParams },
    response: { description: "Deleted.", schema: successResponse },
    handler: async (c, { auth, params }) => {
      await deleteEmailDraft(c.get("deps").db, auth.project.id, params.id);
      return { success: true } as const;
    },
  }),
];
