import type { CurrentUser, Loadable, Project, Team } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { formError, formValues, submit } from "../../base/forms.js";
import { msg, str } from "../../base/i18n.js";
import { accountCss, keepFocusIn } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";
import { isOnlyAdminAmongOthers, onlyAdminExplanation } from "../teams/team-roles.js";

/**
 * The teams the signed-in user belongs to, the selected one marked; create a team (when the project lets
 * users do so) and leave a team after confirming. The team's only admin is told why they cannot leave while
 * others remain instead (see teams/team-roles.ts).
 *
 * @element auth-team-list-settings
 * @fires auth-team-created - After a team was created (and selected); `detail` is `{ teamId }`.
 * @fires auth-team-left - After the user left a team; `detail` is `{ teamId }`.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart input - The new team name input.
 * @csspart submit - The create button.
 * @csspart dialog - The confirmation dialog for leaving a team.
 * @csspart label - The new team name input's label.
 * @csspart error - The form-level error.
 */
export class AuthTeamListSettingsElement extends AuthElement {
  static override css = accountCss;
  static override properties = { busy: { state: true }, working: { state: true }, error: { state: true }, status: { state: true } };

  protected declare busy: boolean;
  protected declare working: string | null;
  protected declare error: ShownError | null;
  protected declare status: string;
  private readonly teams = this.watch((app) => app.$teams);
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.busy = false;
    this.working = null;
    this.error = null;
    this.status = "";
  }

  protected override render(): TemplateResult {
    const teams = this.teams() as Loadable<Team[]> | undefined;
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const project = this.project() as Loadable<Project> | undefined;
    const selected = user?.status === "ready" ? user.value?.selectedTeamId : null;
    const canCreate = project?.status === "ready" && project.value.config.clientTeamCreationEnabled;
    const nameId = `${this.uid}-team-name`;
    return html`<div class="lk-section lk-stack" part="base">
      ${teams?.status === "ready"
        ? teams.value.length
          ? html`<ul class="lk-list">${teams.value.map((team) => this.team(team, team.id === selected))}</ul>`
          : html`<p class="lk-note">${msg("You are not a member of any team.")}</p>`
        : teams?.status === "error"
          ? html`<p class="lk-alert" role="alert">${describeError(teams.error).message}</p>`
          : html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`}
      ${this.error && !canCreate ? formError(this.error) : nothing}
      <p class="lk-note" role="status">${this.status}</p>
      ${canCreate
        ? html`<form @submit=${this.create}>
            <label part="label" for=${nameId}>${msg("New team name")}
              <input part="input" id=${nameId} name="team-name" autocomplete="off" required maxlength="200" /></label>
            ${formError(this.error)} ${submit(msg("Create team"), msg("Creating…"), this.busy)}
          </form>`
        : nothing}
    </div>`;
  }

  private team(team: Team, selected: boolean): TemplateResult {
    const nameId = `${this.uid}-${team.id}`;
    return html`<li>
      <span class="lk-grow lk-name" id=${nameId} title=${team.displayName}>${team.displayName}</span>
      ${selected ? html`<span class="lk-badge">${msg("Selected")}</span>` : nothing}
      <button type="button" class="lk-danger" aria-describedby=${nameId} ?disabled=${this.working === team.id} @click=${() => this.leave(team)}>${msg("Leave")}</button>
    </li>`;
  }

  private create = async (event: Event): Promise<void> => {
    const form = event.target as HTMLFormElement;
    const { "team-name": name = "" } = formValues(event);
    if (this.busy || !this.app || !name.trim()) return;
    this.busy = true;
    this.error = null;
    this.status = "";
    try {
      const team = await this.app.createTeam({ displayName: name.trim() });
      form.reset();
      this.status = msg(str`The team ${team.displayName} has been created.`);
      this.emit("auth-team-created", { teamId: team.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.busy = false;
    }
  };

  private async leave(team: Team): Promise<void> {
    if (this.working || !this.app) return;
    if (await this.isOnlyAdmin(team)) {
      this.status = "";
      this.error = { field: "form", message: onlyAdminExplanation() };
      return;
    }
    const confirmed = await confirmAction(this, {
      title: msg(str`Leave ${team.displayName}?`),
      message: msg("You will lose access to this team until someone invites you again."),
      confirmLabel: msg("Leave team"),
    });
    if (!confirmed) return;
    this.working = team.id;
    this.error = null;
    this.status = "";
    try {
      await this.app.leaveTeam(team.id);
      this.status = msg(str`You have left ${team.displayName}.`);
      this.emit("auth-team-left", { teamId: team.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.working = null;
    }
    // Once the buttons are enabled again (a disabled button cannot take focus).
    void keepFocusIn(this, ".lk-list button", "input[name=team-name]");
  }

  /**
   * Asked when the person wants to leave (not for every team up front). Without `$read_members` the roles
   * cannot be read: the guard then stands aside, as the server itself lets anyone leave.
   */
  private async isOnlyAdmin(team: Team): Promise<boolean> {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const userId = user?.status === "ready" ? user.value?.id : undefined;
    if (!userId) return false;
    try {
      return isOnlyAdminAmongOthers(await this.app!.listTeamMemberRoles(team.id), userId);
    } catch {
      return false;
    }
  }
}
