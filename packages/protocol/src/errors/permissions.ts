/** Errors about permission definitions and about users lacking a permission. */
import { defineKnownError } from "./known-error.js";

export type PermissionScope = "project" | "team";

export const PermissionNotFound = defineKnownError("PERMISSION_NOT_FOUND", {
  status: 404,
  build: (permissionId: string) => ({
    message: `Permission "${permissionId}" not found. Make sure you created it on the dashboard.`,
    details: { permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.permission_id],
});

export const PermissionScopeMismatch = defineKnownError("WRONG_PERMISSION_SCOPE", {
  status: 404,
  build: (permissionId: string, expectedScope: PermissionScope, actualScope: PermissionScope | null) => ({
    message: `Permission ${JSON.stringify(permissionId)} not found. (It was found for a different scope ${JSON.stringify(actualScope)}, but scope ${JSON.stringify(expectedScope)} was expected.)`,
    details: { permission_id: permissionId, expected_scope: expectedScope, actual_scope: actualScope },
  }),
  fromDetails: (d) => [d?.permission_id, d?.expected_scope, d?.actual_scope],
});

export const ContainedPermissionNotFound = defineKnownError("CONTAINED_PERMISSION_NOT_FOUND", {
  status: 400,
  build: (permissionId: string) => ({
    message: `Contained permission with ID "${permissionId}" not found. Make sure you created it on the dashboard.`,
    details: { permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.permission_id],
});

export const PermissionIdAlreadyExists = defineKnownError("PERMISSION_ID_ALREADY_EXISTS", {
  status: 400,
  build: (permissionId: string) => ({
    message: `Permission with ID "${permissionId}" already exists. Choose a different ID.`,
    details: { permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.permission_id],
});

export const ProjectPermissionRequired = defineKnownError("PROJECT_PERMISSION_REQUIRED", {
  status: 401,
  build: (userId: string, permissionId: string) => ({
    message: `User ${userId} does not have permission ${permissionId}.`,
    details: { user_id: userId, permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.user_id, d?.permission_id],
});

export const TeamPermissionRequired = defineKnownError("TEAM_PERMISSION_REQUIRED", {
  status: 401,
  build: (teamId: string, userId: string, permissionId: string) => ({
    message: `User ${userId} does not have permission ${permissionId} in team ${teamId}.`,
    details: { team_id: teamId, user_id: userId, permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.team_id, d?.user_id, d?.permission_id],
});

/** Same message and status as `TeamPermissionRequired`; only the code differs. */
export const TeamPermissionNotFound = defineKnownError("TEAM_PERMISSION_NOT_FOUND", {
  status: 401,
  build: (teamId: string, userId: string, permissionId: string) => ({
    message: `User ${userId} does not have permission ${permissionId} in team ${teamId}.`,
    details: { team_id: teamId, user_id: userId, permission_id: permissionId },
  }),
  fromDetails: (d) => [d?.team_id, d?.user_id, d?.permission_id],
});
