/** The server takes profile images as URLs of at most this many characters (data URLs included). */
export const MAX_AVATAR_URL_LENGTH = 1_000_000;
/** Avatars are shown small; a larger picture would only cost characters. */
export const MAX_AVATAR_SIZE = 256;

/** The resized picture does not fit in MAX_AVATAR_URL_LENGTH characters. */
export class AvatarTooLargeError extends Error {}

/**
 * Turns a picture file into a data URL of at most 256×256 pixels (aspect ratio kept, never enlarged). A JPEG
 * stays a JPEG (a photo is several times smaller that way); anything else becomes a PNG, which keeps
 * transparency. Throws a DOMException when the file is not a readable image, and AvatarTooLargeError in the
 * (at this size theoretical) case that the result passes the server's limit.
 */
export async function avatarDataUrl(file: Blob): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_AVATAR_SIZE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d");
  if (!context) throw new DOMException("No 2D canvas", "NotSupportedError");
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const url = file.type === "image/jpeg" ? canvas.toDataURL("image/jpeg", 0.85) : canvas.toDataURL("image/png");
  if (url.length > MAX_AVATAR_URL_LENGTH) throw new AvatarTooLargeError();
  return url;
}
