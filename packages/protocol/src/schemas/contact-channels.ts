import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { callbackUrl } from "./auth.js";
import { emailWithCallbackBody, verificationCodeBody } from "./email-flows.js";
import { emailAddress } from "./project-config.js";

/**
 * Wire shapes of contact channels and email verification (SPEC.md §3 "Contact channel", §7 "Users and
 * contact channels"): `GET/POST /contact-channels`, `GET/PATCH/DELETE /contact-channels/{user_id}/{id}`,
 * the two `send-verification-code` routes and `POST /contact-channels/verify[/check-code]`.
 * Only the server and admin shapes may write `is_verified`.
 */

export const CONTACT_CHANNEL_TYPES = ["email"] as const;
export type ContactChannelType = (typeof CONTACT_CHANNEL_TYPES)[number];

const type = z.enum(CONTACT_CHANNEL_TYPES);
// Email is the only type, so every value must be an email address (the reference checks it only when the
// request names the type; a PATCH of `value` alone is checked here too).
const value = emailAddress;

/** `/contact-channels/{user_id}/{contact_channel_id}[/send-verification-code]` */
export const contactChannelParams = z.object({
  user_id: userIdOrMe,
  contact_channel_id: uuid,
});

/** `GET /contact-channels?user_id=&contact_channel_id=` (clients must name themselves). */
export const contactChannelListQuery = z.object({
  user_id: userIdOrMe.optional(),
  contact_channel_id: uuid.optional(),
});

/** `POST /contact-channels` (client): a channel for the signed-in user. */
export const contactChannelClientCreateBody = z.strictObject({
  user_id: userIdOrMe,
  value,
  type,
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
});
export type ContactChannelClientCreateBody = z.infer<typeof contactChannelClientCreateBody>;

/** `POST /contact-channels` (server, admin): any user's channel, optionally already verified. */
export const contactChannelServerCreateBody = contactChannelClientCreateBody.extend({
  is_verified: z.boolean().optional(),
});
export type ContactChannelServerCreateBody = z.infer<typeof contactChannelServerCreateBody>;

/** `PATCH /contact-channels/{user_id}/{id}` (client). Omitted fields stay as they are. */
export const contactChannelClientUpdateBody = z.strictObject({
  value: value.optional(),
  type: type.optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
});
export type ContactChannelClientUpdateBody = z.infer<typeof contactChannelClientUpdateBody>;

/** `PATCH /contact-channels/{user_id}/{id}` (server, admin). */
export const contactChannelServerUpdateBody = contactChannelClientUpdateBody.extend({
  is_verified: z.boolean().optional(),
});
export type ContactChannelServerUpdateBody = z.infer<typeof contactChannelServerUpdateBody>;

/** The read shape, the same for every access type. */
export const contactChannelRead = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  type,
  value: z.string(),
  is_primary: z.boolean(),
  is_verified: z.boolean(),
  used_for_auth: z.boolean(),
});
export type ContactChannelRead = z.infer<typeof contactChannelRead>;

/** `GET /contact-channels`: every matching channel, in one unpaginated list. */
export const contactChannelListResponse = z.strictObject({
  items: z.array(contactChannelRead),
  is_paginated: z.literal(false),
});
export type ContactChannelListResponse = z.infer<typeof contactChannelListResponse>;

/** `POST /contact-channels/send-verification-code` (the signed-in user's primary email): `{ email, callback_url }`. */
export const contactChannelSendVerificationCodeBody = emailWithCallbackBody;

/** `POST /contact-channels/{user_id}/{id}/send-verification-code` */
export const contactChannelByIdSendVerificationCodeBody = z.strictObject({
  callback_url: callbackUrl,
});

/** `POST /contact-channels/verify` and `/contact-channels/verify/check-code`: `{ code }`, as every code flow. */
export const contactChannelVerifyBody = verificationCodeBody;
