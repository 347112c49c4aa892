import { MAX_DISPLAY_NAME_LENGTH, adminProjectCreateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";

/**
 * The create-project form: what a person types, checked before it is sent. The wire schema of
 * `POST /internal/projects` (the protocol's) decides what the server accepts; this adds what a form needs on
 * top (a name that is more than spaces) and says each problem in words.
 */
export const projectCreateForm = z.object({
  displayName: z
    .string()
    .trim()
    .min(1, "Give the project a name.")
    .max(MAX_DISPLAY_NAME_LENGTH, `A name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`)
    .pipe(adminProjectCreateBody.shape.display_name),
  description: z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(adminProjectCreateBody.shape.description.unwrap()),
});

export type ProjectCreateInput = z.input<typeof projectCreateForm>;
export type ProjectCreateValues = z.output<typeof projectCreateForm>;
