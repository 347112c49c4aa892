import { projectKey } from "../../../project-admin.js";

/**
 * Query keys of the Users pages. Everything about users sits under `usersKey`, so a change that can show in
 * the list (a new or deleted user, a new name) refreshes all of it at once.
 */
export const usersKey = (projectId: string) => [...projectKey(projectId), "users"] as const;
export const userListKey = (projectId: string, search: { query: string; cursor: string | undefined }) => [...usersKey(projectId), "list", search] as const;
export const userKey = (projectId: string, userId: string) => [...usersKey(projectId), "user", userId] as const;
/** One part of a user's page (`sessions`, `channels`, …), refreshed on its own after a change there. */
export const userPartKey = (projectId: string, userId: string, part: string) => [...userKey(projectId, userId), part] as const;
