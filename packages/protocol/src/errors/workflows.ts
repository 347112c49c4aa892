/** Errors about workflow tokens (the x-stack-workflow-token header). */
import { defineKnownError } from "./known-error.js";

export const WorkflowTokenDoesNotExist = defineKnownError("WORKFLOW_TOKEN_DOES_NOT_EXIST", {
  status: 400,
  build: () => ({
    message: "The workflow token you specified does not exist. Make sure the value in x-stack-workflow-token is correct.",
  }),
  fromDetails: () => [],
});

export const WorkflowTokenExpired = defineKnownError("WORKFLOW_TOKEN_EXPIRED", {
  status: 400,
  build: () => ({
    message: "The workflow token you specified has expired. Make sure the value in x-stack-workflow-token is correct.",
  }),
  fromDetails: () => [],
});
