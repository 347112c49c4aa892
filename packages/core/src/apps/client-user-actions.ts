import { CANNOT_GET_OWN_USER_WITHOUT_USER, isKnownError } from "../http/client-errors.js";
import type { ClientProjectRead, ContactChannelRead, ProjectPermissionRead, SignInResponse, TeamClientRead } from "@latchkey/protocol/schemas";
import { withReturnTarget } from "../urls.js";
import { contactChannelFromWire, type ContactChannel, type ContactChannelCreate } from "../wire/contact-channels.js";
import { projectFromWire, type Project } from "../wire/projects.js";
import { teamFromWire, type Team } from "../wire/teams.js";
import { userFromWire, userUpdateToWire, type CurrentUser, type UserUpdate, type WireClientUser } from "../wire/users.js";
import type { AppContext } from "./app-context.js";

/**
 * What to do when there is no signed-in user (SPEC.md §4): `return-null` (default) returns null;
 * `throw` throws; `redirect` goes to sign-in (replacing the page) and never resolves; `anonymous` signs up
 * an anonymous user (one sign-up at a time) and returns it. Anonymous users count as signed out unless
 * `anonymous` is asked for.
 */
export type GetUserOr = "return-null" | "throw" | "redirect" | "anonymous";

export class NotSignedInError extends Error {
  constructor() {
    super("User is not signed in but getUser was called with { or: 'throw' }");
    this.name = "NotSignedInError";
  }
}

export interface ClientUserActions {
  getUser(options: { or: "throw" | "redirect" | "anonymous" }): Promise<CurrentUser>;
  getUser(options?: { or?: "return-null" }): Promise<CurrentUser | null>;
  updateUser(update: UserUpdate): Promise<CurrentUser>;
  updatePassword(input: { oldPassword: string; newPassword: string }): Promise<void>;
  setPassword(input: { password: string }): Promise<void>;
  listContactChannels(): Promise<ContactChannel[]>;
  addContactChannel(input: ContactChannelCreate): Promise<ContactChannel>;
  listTeams(): Promise<Team[]>;
  /** The ids of the signed-in user's project permissions, including those contained in others; empty when signed out. */
  listMyProjectPermissions(): Promise<string[]>;
  getProject(): Promise<Project>;
}

/**
 * `afterChange` reloads the user's stores after an edit; `afterSessionChange` waits for the reload a new
 * session (the anonymous sign-up) has started.
 */
export function clientUserActions(ctx: AppContext, afterChange: () => Promise<void>, afterSessionChange: () => Promise<void>): ClientUserActions {
  let anonymousSignUp: Promise<void> | undefined;

  /** The user of the session, anonymous ones included; null when signed out. */
  async function fetchUser(): Promise<CurrentUser | null> {
    if (!(await ctx.session.getTokens(0))) return null;
    try {
      return userFromWire(await ctx.call<WireClientUser>({ method: "GET", path: "/users/me" }));
    } catch (error) {
      // The session ended between reading the tokens and the answer (e.g. its refresh was rejected).
      if (isKnownError(error, CANNOT_GET_OWN_USER_WITHOUT_USER)) return null;
      throw error;
    }
  }

  function signUpAnonymously(): Promise<void> {
    anonymousSignUp ??= (async () => {
      const response = await ctx.call<SignInResponse>({ method: "POST", path: "/auth/anonymous/sign-up", body: {}, session: null });
      ctx.session.signIn({ accessToken: response.access_token, refreshToken: response.refresh_token });
      await afterSessionChange();
    })().finally(() => {
      anonymousSignUp = undefined;
    });
    return anonymousSignUp;
  }

  async function getUser(options: { or?: GetUserOr } = {}): Promise<CurrentUser | null> {
    const or = options.or ?? "return-null";
    if (or === "anonymous" && anonymousSignUp) await anonymousSignUp;
    const user = await fetchUser();
    if (user && (!user.isAnonymous || or === "anonymous")) return user;
    switch (or) {
      case "return-null":
        return null;
      case "throw":
        throw new NotSignedInError();
      case "redirect":
        await ctx.redirect(withReturnTarget(ctx.urls.signIn, ctx.currentUrl()), { replace: true });
        // The page is going away; resolving would let the caller render a signed-out state meanwhile.
        return new Promise<never>(() => {});
      case "anonymous": {
        await signUpAnonymously();
        const anonymous = await fetchUser();
        if (!anonymous) throw new Error("The anonymous sign-up returned a session without a user");
        return anonymous;
      }
    }
  }

  return {
    getUser: getUser as ClientUserActions["getUser"],

    async updateUser(update) {
      const wire = await ctx.call<WireClientUser>({ method: "PATCH", path: "/users/me", body: userUpdateToWire(update) });
      await afterChange();
      return userFromWire(wire);
    },

    async updatePassword({ oldPassword, newPassword }) {
      await ctx.call({ method: "POST", path: "/auth/password/update", body: { old_password: oldPassword, new_password: newPassword } });
      await afterChange();
    },

    async setPassword({ password }) {
      await ctx.call({ method: "POST", path: "/auth/password/set", body: { password } });
      await afterChange();
    },

    async listContactChannels() {
      const { items } = await ctx.call<{ items: ContactChannelRead[] }>({ method: "GET", path: "/contact-channels", query: { user_id: "me" } });
      return items.map(contactChannelFromWire);
    },

    async addContactChannel(input) {
      const wire = await ctx.call<ContactChannelRead>({
        method: "POST",
        path: "/contact-channels",
        body: { user_id: "me", type: "email", value: input.value, used_for_auth: input.usedForAuth, ...(input.isPrimary === undefined ? {} : { is_primary: input.isPrimary }) },
      });
      await afterChange();
      return contactChannelFromWire(wire);
    },

    async listTeams() {
      if (!(await ctx.session.getTokens(0))) return [];
      const { items } = await ctx.call<{ items: TeamClientRead[] }>({ method: "GET", path: "/teams", query: { user_id: "me" } });
      return items.map(teamFromWire);
    },

    async listMyProjectPermissions() {
      if (!(await ctx.session.getTokens(0))) return [];
      const { items } = await ctx.call<{ items: ProjectPermissionRead[] }>({
        method: "GET",
        path: "/project-permissions",
        query: { user_id: "me", recursive: true },
      });
      return items.map((permission) => permission.id);
    },

    async getProject() {
      return projectFromWire(await ctx.call<ClientProjectRead>({ method: "GET", path: "/projects/current", session: null }));
    },
  };
}
