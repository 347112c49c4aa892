import type { ClientAccountActions, ClientApp, ClientConnectedAccountActions, ClientProjectActions, ClientTeamActions, TokenStore } from "@latchkey/core";

/**
 * What the sign-in bundle (latchkey-sign-in.iife.js) builds in place of @latchkey/core's team, account-settings,
 * connected-account and owned-project (the dashboard's) actions, its server-side token store and its hosted
 * handler pages' app (vite.config.ts swaps the modules): `<auth-sign-in>` never calls them, a page's script never
 * runs on a server, and they would be ~2.5 KB gzip of its 22 KB budget. Calling one on that bundle's app (or
 * `<auth-app hosted-pages>`) says where it is, as `init` does for `hostedPages`; the full bundle (latchkey.iife.js) has them all.
 */
const missing = (names: string): Record<string, () => never> =>
  Object.fromEntries(
    names.split(" ").map((name) => [
      name,
      () => {
        throw new Error(`${name} needs the full bundle, latchkey.iife.js`);
      },
    ]),
  );

const TEAM_ACTIONS =
  "createTeam selectTeam updateTeam deleteTeam leaveTeam listTeamMembers listTeamMemberRoles updateMyTeamProfile inviteToTeam listTeamInvitations revokeTeamInvitation removeTeamMember getTeamInvitationDetails acceptTeamInvitation listMyTeamPermissions";
const ACCOUNT_ACTIONS =
  "sendContactChannelVerificationEmail updateContactChannel deleteContactChannel listSessions revokeSession deleteUser listNotificationCategories setNotificationCategoryEnabled listApiKeys createApiKey revokeApiKey";

export const clientTeamActions = (): ClientTeamActions => missing(TEAM_ACTIONS) as unknown as ClientTeamActions;
export const clientAccountActions = (): ClientAccountActions => missing(ACCOUNT_ACTIONS) as unknown as ClientAccountActions;
const CONNECTED_ACCOUNT_ACTIONS = "listOAuthProviders updateOAuthProvider deleteOAuthProvider getConnectedAccount";
export const clientConnectedAccountActions = (): ClientConnectedAccountActions => missing(CONNECTED_ACCOUNT_ACTIONS) as unknown as ClientConnectedAccountActions;
const PROJECT_ACTIONS = "listOwnedProjects createProject";
export const clientProjectActions = (): ClientProjectActions => missing(PROJECT_ACTIONS) as unknown as ClientProjectActions;

// What `<auth-app hosted-pages>` makes its app with (elements/app.ts); `init` checks `hostedPages` itself (init.ts).
export const createClientAppWithHostedPages = (): ClientApp => {
  throw new Error("hosted-pages needs the full bundle, latchkey.iife.js");
};

export const requestTokenStore = (): TokenStore => {
  throw new Error("A request's token store is for servers: use @latchkey/core there");
};

// Kept in step with the real lists: the build of the typecheck fails when a method is added or renamed.
type Words<S extends string> = S extends `${infer Head} ${infer Rest}` ? Head | Words<Rest> : S;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const listsAreComplete: [
  Same<Words<typeof TEAM_ACTIONS>, keyof ClientTeamActions>,
  Same<Words<typeof ACCOUNT_ACTIONS>, keyof ClientAccountActions>,
  Same<Words<typeof CONNECTED_ACCOUNT_ACTIONS>, keyof ClientConnectedAccountActions>,
  Same<Words<typeof PROJECT_ACTIONS>, keyof ClientProjectActions>,
] = [true, true, true, true];
