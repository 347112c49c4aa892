/**
 * The known errors the client library itself acts on, imported one by one rather than through the whole
 * catalogue: a browser bundle then carries only these (the catalogue's messages alone are ~28 KB). Every
 * member of the families checked here is listed, so a response is rebuilt as its class and `instanceof`
 * on the family holds. Other codes arrive as a plain `KnownError` with the server's code, message and
 * details — unless the application imports `KnownErrors` (the full catalogue), which declares them all.
 */
import { registerKnownErrors } from "@latchkey/protocol/errors/known-error";
import { MultiFactorAuthenticationRequired } from "@latchkey/protocol/errors/mfa";
import {
  AdminAccessTokenExpired,
  AdminAccessTokenIsNotAdmin,
  InvalidAdminAccessToken,
  InvalidProjectForAdminAccessToken,
  UnparsableAdminAccessToken,
} from "@latchkey/protocol/errors/project-auth";
import {
  AccessTokenExpired,
  CannotDeleteCurrentSession,
  InvalidAccessToken,
  InvalidProjectForAccessToken,
  ProviderRejected,
  RefreshTokenError,
  RefreshTokenNotFoundOrExpired,
  UnparsableAccessToken,
} from "@latchkey/protocol/errors/session";
import { CannotGetOwnUserWithoutUser, UserNotFound } from "@latchkey/protocol/errors/users";

export { CannotGetOwnUserWithoutUser, InvalidAccessToken, InvalidAdminAccessToken, MultiFactorAuthenticationRequired, RefreshTokenError, UserNotFound };

/**
 * The family members, registered explicitly at start: a bare list nobody reads would be dropped by
 * bundlers, and with it the classes.
 */
registerKnownErrors([
  UnparsableAccessToken,
  AccessTokenExpired,
  InvalidProjectForAccessToken,
  RefreshTokenNotFoundOrExpired,
  ProviderRejected,
  UnparsableAdminAccessToken,
  AdminAccessTokenExpired,
  InvalidProjectForAdminAccessToken,
  AdminAccessTokenIsNotAdmin,
  CannotDeleteCurrentSession,
]);
