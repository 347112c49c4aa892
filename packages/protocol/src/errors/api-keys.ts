/** Errors about API keys (user and team keys, and the secret-scanner revocation endpoint). */
import { defineKnownError, defineKnownErrorFamily } from "./known-error.js";

/** The API key cannot be used: missing, expired, revoked or of the wrong kind. */
export const ApiKeyNotValid = defineKnownErrorFamily("API_KEY_NOT_VALID");

export const ApiKeyExpired = defineKnownError("API_KEY_EXPIRED", {
  status: 401,
  parent: ApiKeyNotValid,
  build: () => ({ message: "API key has expired." }),
  fromDetails: () => [],
});

export const ApiKeyRevoked = defineKnownError("API_KEY_REVOKED", {
  status: 401,
  parent: ApiKeyNotValid,
  build: () => ({ message: "API key has been revoked." }),
  fromDetails: () => [],
});

export const WrongApiKeyType = defineKnownError("WRONG_API_KEY_TYPE", {
  status: 400,
  parent: ApiKeyNotValid,
  build: (expectedType: string, actualType: string) => ({
    message: `This endpoint is for ${expectedType} API keys, but a ${actualType} API key was provided.`,
    details: { expected_type: expectedType, actual_type: actualType },
  }),
  fromDetails: (d) => [d?.expected_type, d?.actual_type],
});

export const ApiKeyNotFound = defineKnownError("API_KEY_NOT_FOUND", {
  status: 404,
  parent: ApiKeyNotValid,
  build: () => ({ message: "API key not found." }),
  fromDetails: () => [],
});

export const PublicApiKeyCannotBeRevoked = defineKnownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED", {
  status: 400,
  parent: ApiKeyNotValid,
  build: () => ({ message: "Public API keys cannot be revoked by the secretscanner endpoint." }),
  fromDetails: () => [],
});
