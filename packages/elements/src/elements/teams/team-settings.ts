import type { ClientApp, CurrentUser, Loadable, Team, TeamInvitation, TeamMemberProfile, TeamMemberRoles } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { AVATAR_CSS } from "../../base/avatar.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { filePicker, filePickerCss } from "../../base/file-picker.js";
import { field, formError, formValues, submit } from "../../base/forms.js";
import { msg, str } from "../../base/i18n.js";
import { absoluteDate, accountCss } from "../account/account-common.js";
import { avatarDataUrl, AvatarTooLargeError } from "../account/avatar-image.js";
import { confirmAction } from "../account/confirm-dialog.js";
import { teamAvatar } from "./team-avatar.js";
import { isOnlyAdminAmongOthers, onlyAdminExplanation } from "./team-roles.js";

/** The team permissions (SPEC.md §7 "Permissions") that decide which parts of the settings a member sees. */
type Permission = "$update_team" | "$delete_team" | "$read_members" | "$remove_members" | "$invite_members";

/** A failure whose message is already written for the person (a picture that cannot be used). */
class ReadableError extends Error {}

interface Loaded {
  team: Team;
  permissions: Set<string>;
  members: TeamMemberProfile[];
  /** Each member's roles (with `$read_members`), shown as badges and deciding whether the user may leave. */
  roles: TeamMemberRoles[];
  invitations: TeamInvitation[];
}

/**
 * One team's settings for its members: name and image, members with their team profiles and roles,
 * invitations by email (with a role the inviter holds, when the project defines team roles), pending
 * invitations, removing members, leaving and deleting the team. The team's only admin cannot leave while
 * others remain (explained next to the button; see team-roles.ts). Each action is shown only to
 * members holding the permission it needs (`$update_team`, `$read_members`, `$invite_members`,
 * `$remove_members`, `$delete_team`, from `listMyTeamPermissions`); the server checks them again. Removing,
 * leaving and deleting are confirmed in a native modal dialog.
 *
 * @element auth-team-settings
 * @fires auth-team-updated - After the team's name or image changed; detail `{ teamId }`.
 * @fires auth-team-member-removed - After a member was removed; detail `{ teamId, userId }`.
 * @fires auth-team-left - After the user left the team; detail `{ teamId }`.
 * @fires auth-team-deleted - After the team was deleted; detail `{ teamId }`.
 * @attr team-id - The team; default: the user's selected team.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The settings.
 * @csspart avatar - The team's and the members' avatars.
 * @csspart input - The name and email inputs.
 * @csspart file-button - The "Upload a team image" button (a label around the visually hidden file input).
 * @csspart submit - The save and invite buttons.
 * @csspart dialog - The confirmation dialogs.
 * @csspart label - The labels of the name and invitation email inputs.
 * @csspart invite-status - "Invitation sent to …", next to the invitation form.
 * @csspart role - A member's role badge.
 */
export class AuthTeamSettingsElement extends AuthElement {
  static override properties = {
    teamId: { type: String, attribute: "team-id" },
    loaded: { state: true },
    failure: { state: true },
    finished: { state: true },
    busy: { state: true },
    error: { state: true },
    notice: { state: true },
  };
  static override css = `${accountCss}${AVATAR_CSS}${filePickerCss}
:where(.lk-team-head){display:flex;align-items:center;gap:.6rem;min-width:0}
:where(.lk-team-head .lk-avatar){width:2.5rem;height:2.5rem}`;

  declare teamId: string | null;
  declare loaded: Loaded | null;
  declare failure: string | null;
  // What happened when the team is gone for this user (left or deleted): shown instead of the settings.
  declare finished: string | null;
  // Which action is under way (one at a time).
  declare busy: string | null;
  declare error: ShownError | null;
  declare notice: string | null;
  /** Which action the notice is about: an invitation's is shown next to the invitation form. */
  private noticeOf: string | null = null;
  private readonly user = this.watch((app) => app.$user);
  private loadingFor: string | null = null;

  constructor() {
    super();
    this.teamId = null;
    this.loaded = null;
    this.failure = null;
    this.finished = null;
    this.busy = null;
    this.error = null;
    this.notice = null;
  }

  private currentTeamId(): string | null {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    return this.teamId ?? (user?.status === "ready" ? (user.value?.selectedTeamId ?? null) : null);
  }

  /** Loads when the team to show becomes known or changes (the attribute, or the selected team). */
  protected override updated(): void {
    const teamId = this.currentTeamId();
    if (this.app && teamId && teamId !== this.loadingFor && !this.finished) void this.load(this.app, teamId);
  }

  private async load(app: ClientApp, teamId: string): Promise<void> {
    this.loadingFor = teamId;
    try {
      const [teams, permissionList] = await Promise.all([app.listTeams(), app.listMyTeamPermissions(teamId)]);
      const team = teams.find((t) => t.id === teamId);
      if (!team) {
        this.failure = msg("You are not a member of this team.");
        return;
      }
      const permissions = new Set(permissionList);
      // Only what the member may see is asked for: the server would refuse the rest.
      const [members, roles, invitations] = await Promise.all([
        permissions.has("$read_members") ? app.listTeamMembers(teamId) : Promise.resolve([]),
        // A Latchkey extension: from a server without it the settings still work, without badges or guard.
        permissions.has("$read_members") ? app.listTeamMemberRoles(teamId).catch(() => []) : Promise.resolve([]),
        permissions.has("$invite_members") ? app.listTeamInvitations(teamId) : Promise.resolve([]),
      ]);
      if (this.loadingFor === teamId) {
        this.loaded = { team, permissions, members, roles, invitations };
        this.failure = null;
      }
    } catch (error) {
      this.failure = describeError(error).message;
    }
  }

  private reload(): Promise<void> {
    const teamId = this.currentTeamId();
    return this.app && teamId ? this.load(this.app, teamId) : Promise.resolve();
  }

  protected override render(): TemplateResult {
    if (this.finished) return html`<div class="lk-section" part="base"><p role="status">${this.finished}</p></div>`;
    if (this.failure) return html`<p class="lk-alert" role="alert">${this.failure}</p>`;
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    if (user?.status === "ready" && !user.value) return html`<p class="lk-note">${msg("Sign in to manage your teams.")}</p>`;
    if (user?.status === "ready" && !this.currentTeamId()) return html`<p class="lk-note">${msg("No team selected.")}</p>`;
    if (!this.loaded || user?.status !== "ready" || !user.value) return html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`;
    const { team, permissions } = this.loaded;
    const can = (permission: Permission) => permissions.has(permission);
    const onlyAdmin = isOnlyAdminAmongOthers(this.loaded.roles, user.value.id);
    const explanationId = `${this.uid}-only-admin`;
    return html`<div class="lk-section lk-stack" part="base">
      <h2 class="lk-team-head" tabindex="-1">${teamAvatar(team)}<span class="lk-name" title=${team.displayName}>${team.displayName}</span></h2>
      <p class="lk-note" role="status">${this.noticeOf === "invite" ? "" : (this.notice ?? "")}</p>
      ${formError(this.error)}
      ${can("$update_team") ? this.renderProfile(team) : nothing}
      ${can("$read_members") ? this.renderMembers(user.value.id, can("$remove_members")) : nothing}
      ${can("$invite_members") ? this.renderInvitations() : nothing}
      <section class="lk-stack" aria-labelledby=${`${this.uid}-leave`}>
        <h3 id=${`${this.uid}-leave`}>${can("$delete_team") ? msg("Leave or delete the team") : msg("Leave the team")}</h3>
        ${onlyAdmin
          ? html`<p class="lk-note" id=${explanationId}>${onlyAdminExplanation()} ${can("$delete_team") ? msg("You can also delete the team for everyone.") : nothing}</p>`
          : nothing}
        <div class="lk-actions">
          <button type="button" class="lk-danger" ?disabled=${!!this.busy || onlyAdmin} aria-describedby=${onlyAdmin ? explanationId : nothing} @click=${this.leave}>
            ${msg("Leave team")}
          </button>
          ${can("$delete_team") ? html`<button type="button" class="lk-danger" ?disabled=${!!this.busy} @click=${this.delete}>${msg("Delete team")}</button>` : nothing}
        </div>
      </section>
    </div>`;
  }

  private renderProfile(team: Team): TemplateResult {
    const imageId = `${this.uid}-team-image`;
    return html`<section class="lk-stack" aria-labelledby=${`${this.uid}-profile`}>
      <h3 id=${`${this.uid}-profile`}>${msg("Team profile")}</h3>
      <form @submit=${this.rename}>
        ${field({ uid: this.uid, name: "team-name", label: msg("Team name"), autocomplete: "off", value: team.displayName, maxlength: 256 })}
        ${submit(msg("Save name"), msg("Saving…"), this.busy === "rename")}
      </form>
      ${filePicker({ id: imageId, label: msg("Upload a team image"), accept: "image/*", busy: !!this.busy, onChange: this.changeImage })}
      ${team.profileImageUrl
        ? html`<div class="lk-actions"><button type="button" ?disabled=${!!this.busy} @click=${this.removeImage}>${msg("Remove team image")}</button></div>`
        : nothing}
    </section>`;
  }

  private renderMembers(myId: string, canRemove: boolean): TemplateResult {
    const rolesOf = (userId: string) => this.loaded!.roles.find((member) => member.userId === userId)?.permissionIds ?? [];
    return html`<section class="lk-stack" aria-labelledby=${`${this.uid}-members`}>
      <h3 id=${`${this.uid}-members`}>${msg("Members")}</h3>
      <ul class="lk-list">${this.loaded!.members.map((member) => {
        const name = member.displayName ?? msg("Unnamed member");
        return html`<li>${teamAvatar({ displayName: name, profileImageUrl: member.profileImageUrl })}
          <span class="lk-grow lk-name" title=${name}>${name}</span>${member.userId === myId ? html`<span class="lk-badge">${msg("You")}</span>` : nothing}
          ${rolesOf(member.userId).map((role) => html`<span class="lk-badge" part="role">${role}</span>`)}
          ${canRemove && member.userId !== myId
            ? html`<button type="button" class="lk-danger" ?disabled=${!!this.busy} aria-label=${msg(str`Remove ${name}`)} @click=${() => this.removeMember(member, name)}>${msg("Remove")}</button>`
            : nothing}</li>`;
      })}</ul>
    </section>`;
  }

  private renderInvitations(): TemplateResult {
    const invitations = this.loaded!.invitations;
    // The project's own team roles the user holds (the server refuses granting any other); none: no picker.
    const grantable = [...this.loaded!.permissions].filter((id) => !id.startsWith("$")).sort();
    const roleId = `${this.uid}-role`;
    return html`<section class="lk-stack" aria-labelledby=${`${this.uid}-invite`}>
      <h3 id=${`${this.uid}-invite`}>${msg("Invite a member")}</h3>
      <form @submit=${this.invite}>
        ${field({ uid: this.uid, name: "email", label: msg("Email"), type: "email", autocomplete: "off", error: this.error })}
        ${grantable.length
          ? html`<label part="label" for=${roleId}>${msg("Role")}
              <select id=${roleId} name="role">
                <option value="">${msg("Member (default)")}</option>
                ${grantable.map((id) => html`<option value=${id}>${id}</option>`)}
              </select></label>`
          : nothing}
        ${submit(msg("Send invitation"), msg("Sending…"), this.busy === "invite")}
      </form>
      <p class="lk-note" role="status" part="invite-status">${this.noticeOf === "invite" ? this.notice : ""}</p>
      ${invitations.length
        ? html`<h3>${msg("Pending invitations")}</h3>
            <ul class="lk-list">${invitations.map(
              (invitation) => html`<li><span class="lk-grow">${invitation.recipientEmail}</span>
                <span class="lk-note">${msg(str`Expires ${absoluteDate(invitation.expiresAt)}`)}</span>
                <button type="button" ?disabled=${!!this.busy} aria-label=${msg(str`Revoke the invitation of ${invitation.recipientEmail}`)}
                  @click=${() => this.revoke(invitation)}>${msg("Revoke")}</button></li>`,
            )}</ul>`
        : nothing}
    </section>`;
  }

  /** Runs one action with its busy state; its result (a sentence) is announced in the status line. */
  private async act(kind: string, action: () => Promise<string | null>): Promise<void> {
    if (this.busy || !this.app) return;
    this.busy = kind;
    this.error = null;
    this.notice = null;
    this.noticeOf = kind;
    try {
      this.notice = await action();
    } catch (error) {
      this.error = error instanceof ReadableError ? { field: "form", message: error.message } : describeError(error);
    } finally {
      this.busy = null;
    }
  }

  private rename = (event: Event): Promise<void> => {
    const { "team-name": name = "" } = formValues(event);
    if (!name.trim()) return Promise.resolve();
    return this.act("rename", async () => {
      const team = await this.app!.updateTeam(this.loaded!.team.id, { displayName: name.trim() });
      await this.reload();
      this.emit("auth-team-updated", { teamId: team.id });
      return msg("The team name has been saved.");
    });
  };

  private changeImage = (event: Event): Promise<void> => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return Promise.resolve();
    return this.act("image", async () => {
      let dataUrl: string;
      try {
        // Resized in the browser: the server takes images as data URLs of at most 1,000,000 characters.
        dataUrl = await avatarDataUrl(file);
      } catch (error) {
        input.value = "";
        throw new ReadableError(error instanceof AvatarTooLargeError ? msg("This picture is too large.") : msg("This file is not a picture."));
      }
      await this.app!.updateTeam(this.loaded!.team.id, { profileImageUrl: dataUrl });
      input.value = "";
      await this.reload();
      this.emit("auth-team-updated", { teamId: this.loaded!.team.id });
      return msg("The team image has been saved.");
    });
  };

  private removeImage = (): Promise<void> =>
    this.act("image", async () => {
      await this.app!.updateTeam(this.loaded!.team.id, { profileImageUrl: null });
      await this.reload();
      this.emit("auth-team-updated", { teamId: this.loaded!.team.id });
      return msg("The team image has been removed.");
    });

  private invite = (event: Event): Promise<void> => {
    const form = event.target as HTMLFormElement;
    const { email = "", role = "" } = formValues(event);
    return this.act("invite", async () => {
      await this.app!.inviteToTeam(this.loaded!.team.id, { email: email.trim(), permissionIds: role ? [role] : [] });
      form.reset();
      await this.reload();
      return msg(str`Invitation sent to ${email.trim()}.`);
    });
  };

  private revoke(invitation: TeamInvitation): Promise<void> {
    return this.act("revoke", async () => {
      await this.app!.revokeTeamInvitation(this.loaded!.team.id, invitation.id);
      await this.reload();
      return msg(str`The invitation of ${invitation.recipientEmail} has been revoked.`);
    });
  }

  private async removeMember(member: TeamMemberProfile, name: string): Promise<void> {
    const confirmed = await confirmAction(this, {
      title: msg(str`Remove ${name}?`),
      message: msg("They lose access to this team until someone invites them again."),
      confirmLabel: msg("Remove member"),
    });
    if (!confirmed) return;
    await this.act("remove", async () => {
      const teamId = this.loaded!.team.id;
      await this.app!.removeTeamMember(teamId, member.userId);
      await this.reload();
      this.emit("auth-team-member-removed", { teamId, userId: member.userId });
      return msg(str`${name} has been removed from the team.`);
    });
  }

  private leave = async (): Promise<void> => {
    const team = this.loaded!.team;
    const confirmed = await confirmAction(this, {
      title: msg(str`Leave ${team.displayName}?`),
      message: msg("You will lose access to this team until someone invites you again."),
      confirmLabel: msg("Leave team"),
    });
    if (!confirmed) return;
    await this.act("leave", async () => {
      await this.app!.leaveTeam(team.id);
      this.finished = msg(str`You have left ${team.displayName}.`);
      this.emit("auth-team-left", { teamId: team.id });
      return null;
    });
  };

  private delete = async (): Promise<void> => {
    const team = this.loaded!.team;
    const confirmed = await confirmAction(this, {
      title: msg(str`Delete ${team.displayName}?`),
      message: msg("The team is deleted for all its members. This cannot be undone."),
      confirmLabel: msg("Delete team"),
    });
    if (!confirmed) return;
    await this.act("delete", async () => {
      await this.app!.deleteTeam(team.id);
      this.finished = msg(str`${team.displayName} has been deleted.`);
      this.emit("auth-team-deleted", { teamId: team.id });
      return null;
    });
  };
}
