import type { ClientApp, ContactChannel, CurrentUser, Loadable, OAuthConnection, Project } from "@latchkey/core";
import type { ReactiveElement } from "lit";
import { html, nothing, type TemplateResult } from "lit-html";

/**
 * The last-way-in rule of the account sections (issue 31): no button there may leave the signed-in user
 * without a way to sign in again. The server does not refuse such a change (the protocol allows it), so the
 * sections hold the button back and say why, as the team widgets do for a team's last admin.
 */

/** What the client knows about how the user signs in. */
export interface SignInFacts {
  user: CurrentUser;
  project: Project;
  channels: readonly ContactChannel[];
  links: readonly OAuthConnection[];
}

/**
 * How many ways the user has to sign in, counted as the server decides a sign-in: a password needs an
 * address used for sign-in (any, verified or not); a code or magic link needs a verified one (an unverified
 * address is refused); a passkey needs passkey sign-in on for the user; a linked account needs its own "sign
 * in" switch. Each also needs the project to offer that method (the provider, for a linked account).
 */
export function countWaysIn({ user, project: { config }, channels, links }: SignInFacts): number {
  const signInAddresses = channels.filter((channel) => channel.usedForAuth);
  let ways = links.filter((link) => link.allowSignIn && config.oauthProviders.some((provider) => provider.id === link.providerId)).length;
  if (config.credentialEnabled && user.hasPassword && signInAddresses.length > 0) ways++;
  if (config.magicLinkEnabled && signInAddresses.some((channel) => channel.isVerified)) ways++;
  if (config.passkeyEnabled && user.passkeyAuthEnabled) ways++;
  return ways;
}

/** A change a button would make, applied to the facts (what they would be afterwards). */
export type Change = (facts: SignInFacts) => Partial<SignInFacts>;

/** Whether `change` takes away the user's last way in. (A user who has none already loses nothing more.) */
export function leavesNoWayIn(facts: SignInFacts, change: Change): boolean {
  const before = countWaysIn(facts);
  return before > 0 && countWaysIn({ ...facts, ...change(facts) }) === 0;
}

/**
 * One section's view of the facts, kept current. A section passes the list it shows itself (addresses or
 * linked accounts); the others are read here: again whenever `$user` changes — every account change reloads
 * it, whichever section made it, so a passkey added under Security frees the address under Profile — and once
 * more, fresh, right before a change that could remove a way in (another tab may have removed one).
 */
export class WaysIn {
  /** The lists read for `readFor` (kept while they are read again, so a held-back button does not flicker). */
  private loaded: { channels: readonly ContactChannel[] | null; links: readonly OAuthConnection[] | null } | null = null;
  private readFor: CurrentUser | null = null;
  private user: CurrentUser | null = null;
  private project: Project | null = null;

  constructor(
    private readonly host: ReactiveElement,
    private readonly own: { channels?: () => readonly ContactChannel[] | null; links?: () => readonly OAuthConnection[] | null } = {},
  ) {}

  /** Call from `willUpdate` with the section's `$user` and `$project` values: reads again when `$user` changed. */
  track(app: ClientApp | undefined, userState: unknown, projectState: unknown): void {
    const u = userState as Loadable<CurrentUser | null> | undefined;
    const p = projectState as Loadable<Project> | undefined;
    this.user = u?.status === "ready" ? u.value : null;
    this.project = p?.status === "ready" ? p.value : null;
    if (!app || !this.user || !this.project || this.readFor === this.user) return;
    // Another person's lists say nothing about this one.
    if (this.readFor?.id !== this.user.id) this.loaded = null;
    const user = (this.readFor = this.user);
    read(app, user, this.project, this.own).then(
      (lists) => {
        if (this.readFor !== user) return;
        this.loaded = lists;
        this.host.requestUpdate();
      },
      // Unknown stays unknown: the buttons stay as they are and the check before acting reads again.
      () => {},
    );
  }

  /** The facts as last read, or null while something is not known yet. */
  facts(): SignInFacts | null {
    if (!this.user || !this.project || !this.loaded) return null;
    const channels = this.own.channels?.() ?? this.loaded.channels;
    const links = this.own.links?.() ?? this.loaded.links;
    return channels && links ? { user: this.user, project: this.project, channels, links } : null;
  }

  /** Whether the button making `change` is held back (false while the facts are first loading). */
  blocks(change: Change): boolean {
    const facts = this.facts();
    return !!facts && leavesNoWayIn(facts, change);
  }

  /** The same question on facts read now from the server: asked right before the change is sent. */
  async blocksNow(app: ClientApp, change: Change): Promise<boolean> {
    const [user, project] = await Promise.all([app.getUser(), app.getProject()]);
    if (!user) return true;
    const lists = await read(app, user, project, {});
    return leavesNoWayIn({ user, project, channels: lists.channels ?? [], links: lists.links ?? [] }, change);
  }
}

/** The lists `own` does not provide; none is read when the project has no method it matters for. */
async function read(app: ClientApp, user: CurrentUser, project: Project, own: { channels?: unknown; links?: unknown }) {
  const { config } = project;
  const [channels, links] = await Promise.all([
    own.channels ? null : config.credentialEnabled || config.magicLinkEnabled ? app.listContactChannels() : [],
    own.links ? null : config.oauthProviders.length > 0 && user.oauthProviders.length > 0 ? app.listOAuthProviders() : [],
  ]);
  return { channels, links };
}

/**
 * The visible reason a button is held back, which the button points to (`aria-describedby`; also its
 * `title`, for a pointer resting on it).
 */
export function reasonNote(id: string, reason: string | null): TemplateResult | typeof nothing {
  return reason ? html`<p class="lk-note lk-reason" part="reason" id=${id}>${reason}</p>` : nothing;
}
