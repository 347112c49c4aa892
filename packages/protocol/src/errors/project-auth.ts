/**
 * Errors about how a request authenticates as a project: the x-stack-project-id and x-stack-access-type
 * headers, the project keys, and admin access tokens.
 */
import { defineKnownError, defineKnownErrorFamily } from "./known-error.js";

/** The value of the x-stack-access-type header. */
export type AccessType = "client" | "server" | "admin";

const restAuthDocs =
  "For more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication";

/** Every error about project authentication. */
export const ProjectAuthenticationError = defineKnownErrorFamily("PROJECT_AUTHENTICATION_ERROR");

/** Project authentication was attempted but is malformed or wrong. */
export const InvalidProjectAuthentication = defineKnownErrorFamily("INVALID_PROJECT_AUTHENTICATION", ProjectAuthenticationError);

export const ProjectKeyWithoutAccessType = defineKnownError("PROJECT_KEY_WITHOUT_ACCESS_TYPE", {
  status: 400,
  parent: InvalidProjectAuthentication,
  build: () => ({
    message:
      "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.",
  }),
  fromDetails: () => [],
});

export const InvalidAccessType = defineKnownError("INVALID_ACCESS_TYPE", {
  status: 400,
  parent: InvalidProjectAuthentication,
  build: (accessType: string) => ({
    message: `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${accessType}'.`,
  }),
  // The protocol sends no details here, so a client cannot recover the header's value.
  fromDetails: (d) => [d?.accessType],
});

export const AccessTypeWithoutProjectId = defineKnownError("ACCESS_TYPE_WITHOUT_PROJECT_ID", {
  status: 400,
  parent: InvalidProjectAuthentication,
  build: (accessType: AccessType) => ({
    message: `The x-stack-access-type header was '${accessType}', but the x-stack-project-id header was not provided.\n\n${restAuthDocs}`,
    details: { request_type: accessType },
  }),
  fromDetails: (d) => [d?.request_type],
});

export const AccessTypeRequired = defineKnownError("ACCESS_TYPE_REQUIRED", {
  status: 400,
  parent: InvalidProjectAuthentication,
  build: () => ({
    message: `You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\n${restAuthDocs}`,
  }),
  fromDetails: () => [],
});

export const InsufficientAccessType = defineKnownError("INSUFFICIENT_ACCESS_TYPE", {
  status: 401,
  parent: InvalidProjectAuthentication,
  build: (actualAccessType: AccessType, allowedAccessTypes: AccessType[]) => ({
    message: `The x-stack-access-type header must be ${allowedAccessTypes.map((type) => `'${type}'`).join(" or ")}, but was '${actualAccessType}'.`,
    details: { actual_access_type: actualAccessType, allowed_access_types: allowedAccessTypes },
  }),
  fromDetails: (d) => [d?.actual_access_type, d?.allowed_access_types],
});

export const InvalidPublishableClientKey = defineKnownError("INVALID_PUBLISHABLE_CLIENT_KEY", {
  status: 401,
  parent: InvalidProjectAuthentication,
  build: (projectId: string) => ({
    message: `The publishable key is not valid for the project ${JSON.stringify(projectId)}. Does the project and/or the key exist?`,
    details: { project_id: projectId },
  }),
  fromDetails: (d) => [d?.project_id],
});

export const InvalidSecretServerKey = defineKnownError("INVALID_SECRET_SERVER_KEY", {
  status: 401,
  parent: InvalidProjectAuthentication,
  build: (projectId: string) => ({
    message: `The secret server key is not valid for the project ${JSON.stringify(projectId)}. Does the project and/or the key exist?`,
    details: { project_id: projectId },
  }),
  fromDetails: (d) => [d?.project_id],
});

export const InvalidSuperSecretAdminKey = defineKnownError("INVALID_SUPER_SECRET_ADMIN_KEY", {
  status: 401,
  parent: InvalidProjectAuthentication,
  build: (projectId: string) => ({
    message: `The super secret admin key is not valid for the project ${JSON.stringify(projectId)}. Does the project and/or the key exist?`,
    details: { project_id: projectId },
  }),
  fromDetails: (d) => [d?.project_id],
});

/** The x-stack-admin-access-token header is present but not acceptable. */
export const InvalidAdminAccessToken = defineKnownErrorFamily("INVALID_ADMIN_ACCESS_TOKEN", InvalidProjectAuthentication);

export const UnparsableAdminAccessToken = defineKnownError("UNPARSABLE_ADMIN_ACCESS_TOKEN", {
  status: 401,
  parent: InvalidAdminAccessToken,
  build: () => ({ message: "Admin access token is not parsable." }),
  fromDetails: () => [],
});

export const AdminAccessTokenExpired = defineKnownError("ADMIN_ACCESS_TOKEN_EXPIRED", {
  status: 401,
  parent: InvalidAdminAccessToken,
  build: (expiredAt?: Date) => ({
    message: `Admin access token has expired. Please refresh it and try again.${expiredAt ? ` (The access token expired at ${expiredAt.toISOString()}.)` : ""}`,
    details: { expired_at_millis: expiredAt?.getTime() ?? null },
  }),
  fromDetails: (d): [Date | undefined] => [typeof d?.expired_at_millis === "number" ? new Date(d.expired_at_millis) : undefined],
});

export const InvalidProjectForAdminAccessToken = defineKnownError("INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN", {
  status: 401,
  parent: InvalidAdminAccessToken,
  build: () => ({ message: "Admin access tokens must be created on the internal project." }),
  fromDetails: () => [],
});

export const AdminAccessTokenIsNotAdmin = defineKnownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", {
  status: 401,
  parent: InvalidAdminAccessToken,
  build: () => ({ message: "Admin access token does not have the required permissions to access this project." }),
  fromDetails: () => [],
});

/** The endpoint needs project keys (or an admin access token) that the request did not provide. */
export const ProjectAuthenticationRequired = defineKnownErrorFamily("PROJECT_AUTHENTICATION_REQUIRED", ProjectAuthenticationError);

export const ClientAuthenticationRequired = defineKnownError("CLIENT_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({ message: "The publishable client key must be provided." }),
  fromDetails: () => [],
});

export const ServerAuthenticationRequired = defineKnownError("SERVER_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({ message: "The secret server key must be provided." }),
  fromDetails: () => [],
});

export const ClientOrServerAuthenticationRequired = defineKnownError("CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({ message: "Either the publishable client key or the secret server key must be provided." }),
  fromDetails: () => [],
});

export const ClientOrAdminAuthenticationRequired = defineKnownError("CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({ message: "Either the publishable client key or the super secret admin key must be provided." }),
  fromDetails: () => [],
});

export const ClientOrServerOrAdminAuthenticationRequired = defineKnownError("CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({
    message: "Either the publishable client key, the secret server key, or the super secret admin key must be provided.",
  }),
  fromDetails: () => [],
});

export const AdminAuthenticationRequired = defineKnownError("ADMIN_AUTHENTICATION_REQUIRED", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: () => ({ message: "The super secret admin key must be provided." }),
  fromDetails: () => [],
});

export const ExpectedInternalProject = defineKnownError("EXPECTED_INTERNAL_PROJECT", {
  status: 401,
  parent: ProjectAuthenticationError,
  build: () => ({ message: "The project ID is expected to be internal." }),
  fromDetails: () => [],
});

/** Newer protocol (2.8.108) only: a project that requires publishable keys got a client request without one. */
export const PublishableClientKeyRequiredForProject = defineKnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", {
  status: 401,
  parent: ProjectAuthenticationRequired,
  build: (projectId?: string) => ({
    message:
      "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access.",
    details: { project_id: projectId ?? null },
  }),
  fromDetails: (d): [string | undefined] => [d?.project_id ?? undefined],
});
