import { z } from "zod";

/** `POST /webhooks/svix-token` (admin): a token for the Svix-compatible webhook API, whose app id is the project id. */
export const svixTokenCreateBody = z.strictObject({});
export const svixTokenRead = z.strictObject({ token: z.string() });
