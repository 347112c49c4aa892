import { Hono } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import { initiatePasskeyBody, passkeyRegisterBody, passkeySignInBody } from "@latchkey/protocol/schemas";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { initiatePasskeyAuthentication, initiatePasskeyRegistration, registerPasskey, signInWithPasskey } from "../services/passkeys.js";

/**
 * `/auth/passkey/*` (SPEC.md §4 "Passkey", §7 "Auth"), for any access type. Registration needs a signed-in
 * user; sign-in answers with the sign-in response (or MULTI_FACTOR_AUTHENTICATION_REQUIRED). The page's
 * Origin header, when the browser sends one, decides the relying party (services/passkeys.ts).
 */
export function passkeyAuthRoutes() {
  return new Hono<AppEnv>()
    .post("/auth/passkey/initiate-passkey-registration", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      validate(c, { body: initiatePasskeyBody });
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      const name = auth.userRecord?.primaryEmail?.value ?? null;
      const user = { id: auth.user.id, name, displayName: auth.user.display_name };
      return c.json(await initiatePasskeyRegistration(c.get("deps").db, auth.project, user, c.req.header("origin")), 200);
    })
    .post("/auth/passkey/register", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passkeyRegisterBody });
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      const credential = body.credential as unknown as RegistrationResponseJSON;
      const response = await registerPasskey(c.get("deps").db, auth.project, auth.user.id, { credential, code: body.code, pageOrigin: c.req.header("origin") });
      return c.json(response, 200);
    })
    .post("/auth/passkey/initiate-passkey-authentication", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      validate(c, { body: initiatePasskeyBody });
      return c.json(await initiatePasskeyAuthentication(c.get("deps").db, project, c.req.header("origin")), 200);
    })
    .post("/auth/passkey/sign-in", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passkeySignInBody });
      const { db, env } = c.get("deps");
      const response = body.authentication_response as unknown as AuthenticationResponseJSON;
      return c.json(await signInWithPasskey(db, env, project, { response, code: body.code, pageOrigin: c.req.header("origin") }), 200);
    });
}
