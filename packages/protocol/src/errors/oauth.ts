/** Errors about OAuth: providers, connected accounts, and Latchkey acting as an OAuth server. */
import { defineKnownError } from "./known-error.js";

export const OAuthConnectionNotConnectedToUser = defineKnownError("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", {
  status: 400,
  build: () => ({ message: "The OAuth connection is not connected to any user." }),
  fromDetails: () => [],
});

export const OAuthConnectionAlreadyConnectedToAnotherUser = defineKnownError("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", {
  status: 409,
  build: () => ({ message: "The OAuth connection is already connected to another user." }),
  fromDetails: () => [],
});

export const OAuthConnectionDoesNotHaveRequiredScope = defineKnownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", {
  status: 400,
  build: () => ({ message: "The OAuth connection does not have the required scope." }),
  fromDetails: () => [],
});

export const OAuthExtraScopeNotAvailableWithSharedOAuthKeys = defineKnownError("OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", {
  status: 400,
  build: () => ({
    message:
      "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes.",
  }),
  fromDetails: () => [],
});

export const OAuthAccessTokenNotAvailableWithSharedOAuthKeys = defineKnownError("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", {
  status: 400,
  build: () => ({
    message:
      "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens.",
  }),
  fromDetails: () => [],
});

export const InvalidOAuthClientIdOrSecret = defineKnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", {
  status: 400,
  build: (clientId?: string) => ({
    message:
      "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key.",
    details: { client_id: clientId ?? null },
  }),
  fromDetails: (d) => [d?.client_id ?? undefined],
});

export const InvalidScope = defineKnownError("INVALID_SCOPE", {
  status: 400,
  build: (scope: string) => ({ message: `The scope "${scope}" is not a valid OAuth scope for Stack.` }),
  // The protocol sends no details here, so a client cannot recover the scope.
  fromDetails: (d) => [d?.scope],
});

export const UserAlreadyConnectedToAnotherOAuthConnection = defineKnownError("USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", {
  status: 409,
  build: () => ({
    message: "The user is already connected to another OAuth account. Did you maybe selected the wrong account?",
  }),
  fromDetails: () => [],
});

export const OuterOAuthTimeout = defineKnownError("OUTER_OAUTH_TIMEOUT", {
  status: 408,
  build: () => ({ message: "The OAuth flow has timed out. Please sign in again." }),
  fromDetails: () => [],
});

export const OAuthProviderNotFoundOrNotEnabled = defineKnownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", {
  status: 400,
  build: () => ({ message: "The OAuth provider is not found or not enabled." }),
  fromDetails: () => [],
});

export const OAuthProviderAccountIdAlreadyUsedForSignIn = defineKnownError("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", {
  status: 400,
  build: () => ({ message: "A provider with the same account ID is already used for signing in." }),
  fromDetails: () => [],
});

export const InvalidSharedOAuthProviderId = defineKnownError("INVALID_SHARED_OAUTH_PROVIDER_ID", {
  status: 400,
  build: (providerId: string) => ({
    message: `The shared OAuth provider with ID ${providerId} is not valid.`,
    details: { provider_id: providerId },
  }),
  fromDetails: (d) => [d?.provider_id],
});

export const InvalidStandardOAuthProviderId = defineKnownError("INVALID_STANDARD_OAUTH_PROVIDER_ID", {
  status: 400,
  build: (providerId: string) => ({
    message: `The standard OAuth provider with ID ${providerId} is not valid.`,
    details: { provider_id: providerId },
  }),
  fromDetails: (d) => [d?.provider_id],
});

export const InvalidAuthorizationCode = defineKnownError("INVALID_AUTHORIZATION_CODE", {
  status: 400,
  build: () => ({ message: "The given authorization code is invalid." }),
  fromDetails: () => [],
});

export const OAuthProviderAccessDenied = defineKnownError("OAUTH_PROVIDER_ACCESS_DENIED", {
  status: 400,
  build: () => ({ message: "The OAuth provider denied access to the user." }),
  fromDetails: () => [],
});
