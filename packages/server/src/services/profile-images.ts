import { HTTPException } from "hono/http-exception";
import type { Db } from "../db/connect.js";
import type { ProfileImageContentType } from "../db/schema-profile-images.js";

/**
 * Profile images of users, teams and member profiles (issue 13 §2), kept outside their rows.
 *
 * What is stored: every `data:image/(png|jpg|jpeg|gif|bmp|webp);base64,…` URL whose bytes begin with the
 * magic number of the declared type, whoever sends it (a server's data URL too). It becomes a row of
 * `profile_images`, owned by the user, team or membership (see migrations/0014_profile_images.sql), and the
 * owner's row keeps the URL this server serves it at: `<publicUrl>/api/v1/profile-images/<id>`
 * (routes/profile-images.ts). Absolute, because clients show it from their own origin; the public URL and
 * 60 characters, far below the protocol's 1,000,000 for an image URL. The schema's 1,000,000-character bound
 * on the data URL is the size limit: an image of at most ~750 kB.
 *
 * Who may send what: where the protocol restricts clients (`PATCH /users/me`, client team create/update),
 * a client sends such a data URL, or a URL this server returned for an image of the same project, since a
 * client that writes back what it read must keep working; anything else is 400 `Invalid profile image URL`
 * as the protocol answers. Servers (and clients where the protocol does not restrict them: member profiles)
 * may set any URL the schema accepts; one we cannot store (an http(s) URL, a data URL of another type) is
 * kept in the row as given: the caller vouches for it and this server never serves it.
 *
 * Orphans: an image belongs to exactly one owner and goes with it by foreign-key cascade; a new value
 * deletes the owner's earlier images in the same transaction (an upload that lost a race to a concurrent
 * one is deleted by the owner's next change, or with the owner). A URL of another owner's image is copied,
 * so that owner's deletion cannot break it. No deduplication: avatars are small and ownership stays simple.
 *
 * TODO(S3-compatible storage): keep the bytes in a bucket when one is configured (this table would keep the
 * owner and type; the route would stream from the bucket). Left until an S3-compatible server can run in the
 * test suite: npm and Debian offer only emulators (s3rver) or a whole Ceph cluster (radosgw).
 */

/** The declared types clients may upload (`jpg` is served as `image/jpeg`). */
const CONTENT_TYPES: Record<string, ProfileImageContentType> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  webp: "image/webp",
};

const IMAGE_DATA_URL = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,([A-Za-z0-9+/]+={0,2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bytesOf = (text: string) => [...text].map((character) => character.charCodeAt(0));
const startsWith = (bytes: Uint8Array, prefix: readonly number[], offset = 0) => bytes.length >= offset + prefix.length && prefix.every((byte, i) => bytes[offset + i] === byte);

/** Each type's magic number: the declared type must be what the bytes are. */
const MAGIC: Record<ProfileImageContentType, (bytes: Uint8Array) => boolean> = {
  "image/png": (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/jpeg": (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  "image/gif": (b) => startsWith(b, bytesOf("GIF87a")) || startsWith(b, bytesOf("GIF89a")),
  "image/bmp": (b) => startsWith(b, bytesOf("BM")),
  "image/webp": (b) => startsWith(b, bytesOf("RIFF")) && startsWith(b, bytesOf("WEBP"), 8),
};

/** Who a stored image belongs to: a user, a team, or a user's profile in a team (both ids). */
export type ProfileImageOwner = { userId: string; teamId?: string } | { userId?: string; teamId: string };

/** A `profile_image_url` as a caller wrote it, checked by `checkProfileImageUrl`, for `saveProfileImage`. */
export type ProfileImageChange =
  | { kind: "none" }
  /** Kept in the row as given. */
  | { kind: "url"; url: string }
  | { kind: "upload"; contentType: ProfileImageContentType; bytes: Uint8Array; publicUrl: string }
  /** A URL this server serves images at; whether it names an image of the project is known only in the database. */
  | { kind: "served"; imageId: string; url: string; publicUrl: string; uploadsOnly: boolean };

export interface ProfileImageRules {
  /** The server's public URL, which the URLs of stored images start with. */
  publicUrl: string;
  /** The caller may send only an image data URL, or the URL of an image of the project (clients). */
  uploadsOnly: boolean;
}

/** The protocol's answer to a client's image URL that is not an image it may set. */
export function invalidProfileImageUrl(): HTTPException {
  return new HTTPException(400, { message: "Invalid profile image URL" });
}

/**
 * Checks a written `profile_image_url` (undefined: not written) before anything else of the request is
 * done, as the protocol does: 400 `Invalid profile image URL` when the rules refuse it.
 */
export function checkProfileImageUrl(url: string | null | undefined, rules: ProfileImageRules): ProfileImageChange | undefined {
  if (url === undefined) return undefined;
  if (url === null) return { kind: "none" };
  const image = decodeImageDataUrl(url);
  if (image) return { kind: "upload", ...image, publicUrl: rules.publicUrl };
  const imageId = servedImageId(url, rules.publicUrl);
  if (imageId) return { kind: "served", imageId, url, publicUrl: rules.publicUrl, uploadsOnly: rules.uploadsOnly };
  if (rules.uploadsOnly) throw invalidProfileImageUrl();
  return { kind: "url", url };
}

/** The image of an image data URL whose bytes are of its declared type, or undefined. */
export function decodeImageDataUrl(url: string): { contentType: ProfileImageContentType; bytes: Uint8Array } | undefined {
  const match = IMAGE_DATA_URL.exec(url);
  if (!match) return undefined;
  const contentType = CONTENT_TYPES[match[1]!]!;
  const bytes = new Uint8Array(Buffer.from(match[2]!, "base64"));
  return MAGIC[contentType](bytes) ? { contentType, bytes } : undefined;
}

/** Where this server serves a stored image. */
export function profileImageUrl(publicUrl: string, imageId: string): string {
  return `${publicUrl}/api/v1/profile-images/${imageId}`;
}

function servedImageId(url: string, publicUrl: string): string | undefined {
  const prefix = profileImageUrl(publicUrl, "");
  const id = url.startsWith(prefix) ? url.slice(prefix.length) : "";
  return UUID.test(id) ? id.toLowerCase() : undefined;
}

/**
 * Applies a checked change for `owner`, inside the caller's transaction, and returns what the owner's
 * `profile_image_url` column now holds. The owner's images other than the one it keeps are deleted.
 */
export async function saveProfileImage(trx: Db, projectId: string, owner: ProfileImageOwner, change: ProfileImageChange): Promise<string | null> {
  const ownerColumns = { project_id: projectId, user_id: owner.userId ?? null, team_id: owner.teamId ?? null };
  const { value, kept } = await keptImage(trx, ownerColumns, change);
  let earlier = trx.deleteFrom("profile_images").where("project_id", "=", projectId);
  earlier = owner.userId ? earlier.where("user_id", "=", owner.userId) : earlier.where("user_id", "is", null);
  earlier = owner.teamId ? earlier.where("team_id", "=", owner.teamId) : earlier.where("team_id", "is", null);
  if (kept) earlier = earlier.where("id", "!=", kept);
  await earlier.execute();
  return value;
}

type OwnerColumns = { project_id: string; user_id: string | null; team_id: string | null };

/** The column's new value, and the id of the stored image the owner keeps (if any). */
async function keptImage(trx: Db, owner: OwnerColumns, change: ProfileImageChange): Promise<{ value: string | null; kept?: string }> {
  switch (change.kind) {
    case "none":
      return { value: null };
    case "url":
      return { value: change.url };
    case "upload": {
      const image = await trx.insertInto("profile_images").values({ ...owner, content_type: change.contentType, bytes: change.bytes }).returning("id").executeTakeFirstOrThrow();
      return { value: profileImageUrl(change.publicUrl, image.id), kept: image.id };
    }
    case "served": {
      const kept = await ownCopyOf(trx, owner, change.imageId);
      if (kept) return { value: profileImageUrl(change.publicUrl, kept), kept };
      if (change.uploadsOnly) throw invalidProfileImageUrl();
      // A server's URL of an image that is not the project's is an http(s) URL like any other.
      return { value: change.url };
    }
  }
}

/** The id of the owner's own image with the bytes of the project's image `imageId` (itself, or a new copy). */
async function ownCopyOf(trx: Db, owner: OwnerColumns, imageId: string): Promise<string | undefined> {
  const image = await trx.selectFrom("profile_images").selectAll().where("project_id", "=", owner.project_id).where("id", "=", imageId).executeTakeFirst();
  if (!image) return undefined;
  if (image.user_id === owner.user_id && image.team_id === owner.team_id) return image.id;
  const copy = await trx.insertInto("profile_images").values({ ...owner, content_type: image.content_type, bytes: image.bytes }).returning("id").executeTakeFirstOrThrow();
  return copy.id;
}

/** A stored image, for serving. */
export async function findProfileImage(db: Db, imageId: string): Promise<{ contentType: ProfileImageContentType; bytes: Uint8Array<ArrayBuffer> } | undefined> {
  if (!UUID.test(imageId)) return undefined;
  const image = await db.selectFrom("profile_images").select(["content_type", "bytes"]).where("id", "=", imageId.toLowerCase()).executeTakeFirst();
  // A copy on an ArrayBuffer of its own: what a Response body takes (drivers may hand out a shared buffer's view).
  return image && { contentType: image.content_type, bytes: new Uint8Array(image.bytes) };
}
