import type { Selectable } from "kysely";
import type { ContactChannelsTable, ProjectsTable, SessionsTable, TeamsTable, UsersTable } from "./schema.js";

/**
 * Rows as they are read, and the user record the read shapes need. They live here, below both the caches
 * that keep them and the services that load them, so neither has to import the other.
 */
export type ProjectRow = Selectable<ProjectsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type UserRow = Selectable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type ContactChannelRow = Selectable<ContactChannelsTable>;

/** A user with what its read shapes need: the primary email channel and the selected team. */
export interface UserRecord {
  user: UserRow;
  primaryEmail: ContactChannelRow | null;
  selectedTeam: TeamRow | null;
  /** The user's OAuth links (oauth_accounts), oldest first: the `oauth_providers` of the read shapes. */
  oauthAccounts: Array<{ provider_config_id: string; provider_account_id: string; email: string | null }>;
}
