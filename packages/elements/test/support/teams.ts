import type { ClientApp } from "@latchkey/core";
import { createUser, uniqueEmail, waitForMail, type BrowserTestProject } from "./harness.js";
import { mount, type Mounted } from "./mount.js";

/** Shared by the team-* browser tests: signed-in people in apps of their own. */

export const PASSWORD = "correct horse battery";
/** Users may create teams from the client, and mail goes to the run's SMTP capture (invitations). */
export const TEAM_PROJECT = { email: true, configOverride: { "teams.allowClientTeamCreation": true } };

export interface Person extends Mounted {
  email: string;
  userId: string;
  /** Events of the team elements, by type, in order. */
  teamEvents: CustomEvent[];
}

const TEAM_EVENTS = ["auth-team-changed", "auth-team-updated", "auth-team-member-removed", "auth-team-left", "auth-team-deleted", "auth-team-invitation-accepted"];

/**
 * A user signed in in an `<auth-app>` of their own around `markup` (memory token store, so two people can
 * share the page). The markup is put in after signing in, so elements start with the user known.
 */
export async function signedIn(project: BrowserTestProject, markup: string, name = "Person"): Promise<Person> {
  const email = uniqueEmail(name.toLowerCase());
  const { userId } = await createUser(project, { email, password: PASSWORD, displayName: name, primaryEmailVerified: true });
  const mounted = await mount(project, "");
  await mounted.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  const teamEvents: CustomEvent[] = [];
  for (const type of TEAM_EVENTS) mounted.host.addEventListener(type, (event) => teamEvents.push(event as CustomEvent));
  mounted.host.innerHTML = markup;
  return { ...mounted, email, userId, teamEvents };
}

/** Invites `email` to the team as `inviter` and returns the code of the mailed link. */
export async function inviteAndReadCode(inviter: ClientApp, teamId: string, email: string): Promise<string> {
  await inviter.inviteToTeam(teamId, { email });
  const mail = await waitForMail(email);
  const link = mail.links.find((l) => l.includes("code="));
  if (!link) throw new Error(`No invitation link in: ${mail.text}`);
  return new URL(link).searchParams.get("code")!;
}

