/** Errors about the user's session: access tokens, refresh tokens and who the request is signed in as. */
import { defineKnownError, defineKnownErrorFamily } from "./known-error.js";

/** Every error about session (user) authentication. */
export const SessionAuthenticationError = defineKnownErrorFamily("SESSION_AUTHENTICATION_ERROR");

/** Session authentication was attempted but is malformed or wrong. */
export const InvalidSessionAuthentication = defineKnownErrorFamily("INVALID_SESSION_AUTHENTICATION", SessionAuthenticationError);

/** The x-stack-access-token header is present but not acceptable; clients refresh and retry on these. */
export const InvalidAccessToken = defineKnownErrorFamily("INVALID_ACCESS_TOKEN", InvalidSessionAuthentication);

export const UnparsableAccessToken = defineKnownError("UNPARSABLE_ACCESS_TOKEN", {
  status: 401,
  parent: InvalidAccessToken,
  build: () => ({ message: "Access token is not parsable." }),
  fromDetails: () => [],
});

export const AccessTokenExpired = defineKnownError("ACCESS_TOKEN_EXPIRED", {
  status: 401,
  parent: InvalidAccessToken,
  // The ids are the expired token's; only the 2.8.108 wording names them.
  build: (expiredAt?: Date, _projectId?: string, _userId?: string, _refreshTokenId?: string) => ({
    message: `Access token has expired. Please refresh it and try again.${expiredAt ? ` (The access token expired at ${expiredAt.toISOString()}.)` : ""}`,
    details: { expired_at_millis: expiredAt?.getTime() ?? null },
  }),
  fromDetails: (d): [Date?, string?, string?, string?] => [
    d?.expired_at_millis ? new Date(d.expired_at_millis) : undefined,
    d?.project_id ?? undefined,
    d?.user_id ?? undefined,
    d?.refresh_token_id ?? undefined,
  ],
  variants: {
    "2.8.108": (expiredAt?: Date, projectId?: string, userId?: string, refreshTokenId?: string) => ({
      message:
        `Access token has expired. Please refresh it and try again.${expiredAt ? ` (The access token expired at ${expiredAt.toISOString()}.)` : ""}` +
        `${projectId ? ` Project ID: ${projectId}.` : ""}${userId ? ` User ID: ${userId}.` : ""}${refreshTokenId ? ` Refresh token ID: ${refreshTokenId}.` : ""}\n\n` +
        "Debug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), " +
        "but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you " +
        "need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint.",
      details: { expired_at_millis: expiredAt?.getTime() ?? null, project_id: projectId ?? null, user_id: userId ?? null, refresh_token_id: refreshTokenId ?? null },
    }),
  },
});

export const InvalidProjectForAccessToken = defineKnownError("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
  status: 401,
  parent: InvalidAccessToken,
  build: (expectedProjectId: string, actualProjectId: string) => ({
    message: `Access token not valid for this project. Expected project ID ${JSON.stringify(expectedProjectId)}, but the token is for project ID ${JSON.stringify(actualProjectId)}.`,
    details: { expected_project_id: expectedProjectId, actual_project_id: actualProjectId },
  }),
  fromDetails: (d) => [d?.expected_project_id, d?.actual_project_id],
});

/** Every error about a refresh token or the session it stands for. */
export const RefreshTokenError = defineKnownErrorFamily("REFRESH_TOKEN_ERROR");

export const RefreshTokenNotFoundOrExpired = defineKnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", {
  status: 401,
  parent: RefreshTokenError,
  build: () => ({ message: "Refresh token not found for this project, or the session has expired/been revoked." }),
  fromDetails: () => [],
});

export const CannotDeleteCurrentSession = defineKnownError("CANNOT_DELETE_CURRENT_SESSION", {
  status: 400,
  parent: RefreshTokenError,
  build: () => ({ message: "Cannot delete the current session." }),
  fromDetails: () => [],
});

export const ProviderRejected = defineKnownError("PROVIDER_REJECTED", {
  status: 401,
  parent: RefreshTokenError,
  build: () => ({
    message:
      "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate.",
  }),
  fromDetails: () => [],
});

export const UserAuthenticationRequired = defineKnownError("USER_AUTHENTICATION_REQUIRED", {
  status: 401,
  build: () => ({ message: "User authentication required for this endpoint." }),
  fromDetails: () => [],
});

export const AnonymousAuthenticationNotAllowed = defineKnownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", {
  status: 401,
  build: () => ({
    message:
      "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users.",
  }),
  fromDetails: () => [],
});
