import { MAX_DISPLAY_NAME_LENGTH, userServerCreateBody, userServerUpdateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { EXPIRY_CHOICES, expiryChoice, expiryDate } from "../../../components/expiry-field.js";

/**
 * The Users pages' forms: what a person types, checked before it is sent. The protocol's wire schemas of
 * `POST /users` and `PATCH /users/{id}` decide what the server accepts; these add what a form needs on top
 * (blank optional fields mean "not given") and say each problem in words.
 */

const create = userServerCreateBody.shape;
const blankToUndefined = (value: string) => value || undefined;

const displayName = z
  .string()
  .trim()
  .max(MAX_DISPLAY_NAME_LENGTH, `A name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);

export const userCreateForm = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter the user's email address.")
    .pipe(z.email("Enter a valid email address, like ada@example.com."))
    .pipe(create.primary_email.unwrap().unwrap()),
  password: z
    .string()
    .max(70, "A password has at most 70 characters.")
    .transform(blankToUndefined)
    .pipe(create.password.unwrap().unwrap().optional()),
  displayName: displayName.transform(blankToUndefined).pipe(create.display_name.unwrap().unwrap().optional()),
});
export type UserCreateInput = z.input<typeof userCreateForm>;
export type UserCreateValues = z.output<typeof userCreateForm>;

/** A new display name; a blank one removes it. */
export const displayNameForm = z.object({
  displayName: displayName.transform((value) => value || null).pipe(userServerUpdateBody.shape.display_name.unwrap()),
});

/** How long a new user API key lives: a week or more, or never expiring (the protocol's `null`). */
export const API_KEY_EXPIRY_CHOICES = EXPIRY_CHOICES.filter((choice) => choice.value !== "1");

/** A new API key for the user; the output is what `createUserApiKey` takes. */
export const userApiKeyForm = z
  .object({
    description: z.string().trim().min(1, "Describe what the key is for, e.g. “Deploy script”."),
    expiry: expiryChoice(API_KEY_EXPIRY_CHOICES),
  })
  .transform(({ description, expiry }) => ({ description, expiresAt: expiryDate(expiry, null) }));
export type UserApiKeyFormValues = z.input<typeof userApiKeyForm>;
