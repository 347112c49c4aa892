import type { ColumnType, Generated } from "kysely";

/** Table type of the profile images (migrations/0014_profile_images.sql); part of `Database` in schema.ts. */

export type ProfileImageContentType = "image/png" | "image/jpeg" | "image/gif" | "image/bmp" | "image/webp";

export interface ProfileImagesTable {
  id: Generated<string>;
  project_id: string;
  /** The owner: a user (user_id), a team (team_id), or a member's profile in a team (both). */
  user_id: string | null;
  team_id: string | null;
  content_type: ProfileImageContentType;
  bytes: Uint8Array;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface ProfileImageTables {
  profile_images: ProfileImagesTable;
}
