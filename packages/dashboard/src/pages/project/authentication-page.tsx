import { Link } from "@tanstack/react-router";
import { QueryState } from "../../components/query-state.js";
import { ConfigSwitchesForm, type SwitchField } from "./project-config/config-switches-form.js";
import { MergeStrategyForm } from "./project-config/merge-strategy-form.js";
import { OAuthProvidersCard } from "./project-config/oauth-providers-card.js";
import { useAdminProject, useProjectConfig, useProjectSettings } from "./project-config/project-config-queries.js";
import "./project-config/project-config.css";

const SIGN_IN_FIELDS: SwitchField[] = [
  { name: "sign_up_enabled", label: "New users can sign up", hint: "When off, only users you create (or invite) can sign in." },
  { name: "credential_enabled", label: "Password sign-in", hint: "Users sign in with their email address and a password." },
  { name: "magic_link_enabled", label: "Magic link and one-time code sign-in", hint: "Users get a link or a code by email." },
  { name: "passkey_enabled", label: "Passkey sign-in", hint: "Users sign in with a passkey of their device." },
  { name: "allow_localhost", label: "Allow localhost", hint: "Apps on localhost may use the project (for development; turn it off in production)." },
];

const USER_FIELDS: SwitchField[] = [
  { name: "client_team_creation_enabled", label: "Users can create teams" },
  { name: "create_team_on_sign_up", label: "Create a personal team for each new user" },
  { name: "client_user_deletion_enabled", label: "Users can delete their own account" },
  { name: "allow_user_api_keys", label: "Users can create API keys" },
  { name: "allow_team_api_keys", label: "Teams can create API keys" },
];

/**
 * How users sign in to the project: sign-up, the sign-in methods, OAuth providers (with their callback URLs),
 * and what users may do for themselves. Trusted domains have their own page.
 */
export function AuthenticationPage() {
  const project = useAdminProject();
  const config = useProjectConfig();
  const { projectId } = useProjectSettings();
  return (
    <>
      <QueryState query={project} what="the project's sign-in settings">
        {({ config: legacy }) => (
          <>
            <ConfigSwitchesForm title="Sign-up and sign-in" fields={SIGN_IN_FIELDS} config={legacy}>
              <p className="dashboard-muted">
                Apps may also create anonymous users, and each user can turn on multi-factor authentication (a one-time password app) for their own
                account: neither needs a project setting. Trusted domains are on the{" "}
                <Link to="/projects/$projectId/domains" params={{ projectId }}>
                  Domains
                </Link>{" "}
                page.
              </p>
            </ConfigSwitchesForm>
            <ConfigSwitchesForm title="Users and teams" fields={USER_FIELDS} config={legacy} />
            <MergeStrategyForm config={legacy} />
          </>
        )}
      </QueryState>
      <QueryState query={config} what="the OAuth providers">
        {(data) => <OAuthProvidersCard config={data} />}
      </QueryState>
    </>
  );
}
