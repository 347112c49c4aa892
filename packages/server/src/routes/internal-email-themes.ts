import {
  emailCreatedResponse,
  emailThemeCreateBody,
  emailThemeIdParams,
  emailThemeListResponse,
  emailThemeRead,
  emailThemeUpdateBody,
  emailThemeUpdated,
  successResponse,
} from "@latchkey/protocol/schemas";
import { KnownErrors } from "@latchkey/protocol/errors";
import { defineRoute } from "../http/route.js";
import { releaseDraftsOfTheme } from "../services/email-drafts.js";
import { checkThemeRenders } from "../services/email-preview.js";
import { createEmailTheme, deleteEmailTheme, listEmailThemes, readEmailTheme, updateEmailTheme } from "../services/email-themes.js";

const TAGS = ["Emails"];
const ADMIN = ["admin"] as const;

/**
 * `/internal/email-themes` (admin, issue 19): the themes that wrap a project's mails, kept in its config
 * (`emails.themes`) next to the built-in "Default Light" and "Default Dark". An unknown id is a plain 404.
 */
export const internalEmailThemesRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/email-themes",
    summary: "List the project's email themes",
    description: "The built-in themes (with the protocol's ids) and the project's own.",
    tags: TAGS,
    access: ADMIN,
    response: { description: "The themes.", schema: emailThemeListResponse },
    handler: (_c, { auth }) => ({ themes: listEmailThemes(auth.project) }),
  }),
  defineRoute({
    method: "post",
    path: "/internal/email-themes",
    summary: "Create an email theme",
    description: "The new theme starts as a copy of the \"Default Light\" source.",
    tags: TAGS,
    access: ADMIN,
    request: { body: emailThemeCreateBody },
    response: { description: "The new theme's id.", schema: emailCreatedResponse },
    handler: (c, { auth, body }) => createEmailTheme(c.get("deps").db, auth.project.id, body.display_name),
  }),
  defineRoute({
    method: "get",
    path: "/internal/email-themes/:id",
    summary: "Read an email theme",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailThemeIdParams },
    response: { description: "The theme with its TSX source.", schema: emailThemeRead },
    handler: (_c, { auth, params }) => readEmailTheme(auth.project, params.id),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/email-themes/:id",
    summary: "Change an email theme",
    description:
      "Sets its TSX source and/or name; a built-in theme may be changed too (the change is the project's). A source is saved only " +
      "if it renders around a sample template; otherwise EMAIL_RENDERING_ERROR says why and nothing changes.",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailThemeIdParams, body: emailThemeUpdateBody },
    response: { description: "The theme's name.", schema: emailThemeUpdated },
    errors: [KnownErrors.EmailRenderingError],
    handler: async (c, { auth, params, body }) => {
      // The 404 comes before a (slower) render of a theme that does not exist.
      readEmailTheme(auth.project, params.id);
      if (body.tsx_source !== undefined) await checkThemeRenders(auth.project, body.tsx_source);
      return updateEmailTheme(c.get("deps").db, auth.project.id, params.id, { displayName: body.display_name, tsxSource: body.tsx_source });
    },
  }),
  defineRoute({
    method: "delete",
    path: "/internal/email-themes/:id",
    summary: "Delete an email theme",
    description:
      "Built-in themes cannot be deleted (400). Templates and drafts that used the theme, and the project if it had selected it, " +
      "fall back to the selected theme (\"Default Light\" for the project).",
    tags: TAGS,
    access: ADMIN,
    request: { params: emailThemeIdParams },
    response: { description: "Deleted.", schema: successResponse },
    handler: async (c, { auth, params }) => {
      const db = c.get("deps").db;
      const themeId = await deleteEmailTheme(db, auth.project.id, params.id);
      await releaseDraftsOfTheme(db, auth.project.id, themeId);
      return { success: true } as const;
    },
  }),
];
