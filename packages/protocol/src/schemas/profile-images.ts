import { z } from "zod";
import { uuid } from "./ids.js";

/**
 * `GET /profile-images/{image_id}`: an image a user, team or member profile was given as a data URL, which
 * the server keeps and serves at the URL it returns in `profile_image_url` (issue 13 §2).
 */

export const profileImageParams = z.object({
  image_id: uuid,
});

const STORED =
  "A `data:image/(png|jpg|jpeg|gif|bmp|webp);base64,…` URL whose bytes are of the declared type is stored by the server and " +
  "read back as the URL it serves the image at (`/api/v1/profile-images/{id}`); sending that URL back keeps the image. `null` removes it.";

/** The OpenAPI description of a `profile_image_url` that clients may set only to an uploaded image. */
export const CLIENT_UPLOADED_IMAGE_DESCRIPTION =
  `The profile image, a URL of at most 1,000,000 characters. ${STORED} Clients may send only such a data URL, or a URL the server ` +
  "returned for an image of the project; anything else is answered with 400 `Invalid profile image URL`. Servers may also set " +
  "other URLs (http or https), which are kept as given.";

/** The OpenAPI description of a `profile_image_url` that any caller may set to any URL (member profiles). */
export const ANY_IMAGE_URL_DESCRIPTION = `The profile image, a URL of at most 1,000,000 characters. ${STORED} Other URLs are kept as given.`;
