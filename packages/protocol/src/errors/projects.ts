/** Errors about the project (and branch) a request is for, and the project's configuration. */
import { defineKnownError } from "./known-error.js";

export const ProjectNotFound = defineKnownError("PROJECT_NOT_FOUND", {
  status: 404,
  build: (projectId: string) => {
    if (typeof projectId !== "string") throw new TypeError("The projectId of ProjectNotFound must be a string");
    return {
      message: `Project ${projectId} not found or is not accessible with the current user.`,
      details: { project_id: projectId },
    };
  },
  fromDetails: (d) => [d?.project_id],
});

export const CurrentProjectNotFound = defineKnownError("CURRENT_PROJECT_NOT_FOUND", {
  status: 400,
  build: (projectId: string) => ({
    message: `The current project with ID ${projectId} was not found. Please check the value of the x-stack-project-id header.`,
    details: { project_id: projectId },
  }),
  fromDetails: (d) => [d?.project_id],
});

export const BranchDoesNotExist = defineKnownError("BRANCH_DOES_NOT_EXIST", {
  status: 400,
  build: (branchId: string) => ({
    message: `The branch with ID ${branchId} does not exist.`,
    details: { branch_id: branchId },
  }),
  fromDetails: (d) => [d?.branch_id],
});

export const RedirectUrlNotWhitelisted = defineKnownError("REDIRECT_URL_NOT_WHITELISTED", {
  status: 400,
  build: () => ({
    message:
      "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
  }),
  fromDetails: () => [],
});
