import { z } from "zod";
import { profileImageParams } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { findProfileImage } from "../services/profile-images.js";

/** An image never changes under its id (a new upload gets a new one), so caches may keep it for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * `GET /profile-images/{image_id}`: the images uploaded as users', teams' and member profiles' data URLs
 * (services/profile-images.ts). Public, because the `<img>` that shows an avatar sends no x-stack headers;
 * the id is a random UUID that only the image's readers are given.
 */
export const profileImagesRoutes = [
  defineRoute({
    method: "get",
    path: "/profile-images/:image_id",
    summary: "Read an uploaded profile image",
    description: "The URL a user's, team's or member profile's `profile_image_url` reads as after an image was uploaded as a data URL. An id that names no image (or one deleted with its owner) is answered with 404 `Profile image not found`.",
    tags: ["Profile images"],
    access: "public",
    request: { params: profileImageParams },
    response: { description: "The image's bytes, in the type it was uploaded as (PNG, JPEG, GIF, BMP or WebP).", schema: z.string().meta({ format: "binary" }), contentType: "image/*" },
    handler: async (c, { params }) => {
      const image = await findProfileImage(c.get("deps").db, params.image_id);
      if (!image) return c.text("Profile image not found", 404);
      return new Response(image.bytes, {
        headers: {
          "content-type": image.contentType,
          "cache-control": IMMUTABLE,
          // The bytes were checked to be of this type; browsers must not guess another (an HTML page, say).
          "x-content-type-options": "nosniff",
          // Shown by pages on any origin, including those that require this opt-in (COEP).
          "cross-origin-resource-policy": "cross-origin",
        },
      });
    },
  }),
];
