import { MAX_DISPLAY_NAME_LENGTH, teamInvitationSendBody, teamServerCreateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";

/**
 * The Teams and Team pages' forms: what the owner types, checked before it is sent, with each problem in
 * words. The protocol's wire schemas decide what the server accepts; these add what a form needs on top.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUserId = (text: string) => UUID.test(text.trim());

export const teamName = z
  .string()
  .trim()
  .min(1, "Give the team a name.")
  .max(MAX_DISPLAY_NAME_LENGTH, `A name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`)
  .pipe(teamServerCreateBody.shape.display_name);

export const createTeamForm = z.object({
  displayName: teamName,
  creatorUserId: z
    .string()
    .trim()
    .refine((value) => value === "" || UUID.test(value), "A user id looks like 3f2b…-…: copy it from the user's page.")
    .transform((value) => value.toLowerCase() || undefined),
});
export type CreateTeamInput = z.input<typeof createTeamForm>;

export const invitationForm = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter the email address to invite.")
    .pipe(z.email("Enter an email address like name@example.com."))
    .pipe(teamInvitationSendBody.shape.email),
});
