import type { AdminProject } from "@latchkey/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { adminProjectKey, projectKey } from "../../../project-admin.js";
import { useProjectSettings } from "../project-config/project-config-queries.js";

/** The checklist looks at the project again this often: a first sign-up happens in the app, not here. */
const RECHECK_MS = 5_000;

type Section = "domains" | "users" | "emails" | "authentication";

interface Step {
  label: string;
  hint: string;
  done: boolean;
  section: Section;
  action: string;
}

function steps(config: AdminProject["config"], hasUsers: boolean): Step[] {
  return [
    {
      label: "Trusted domain added",
      hint: config.allow_localhost
        ? "Your app's address, so sign-in may send people back to it. localhost is allowed while you develop."
        : "Your app's address, so sign-in may send people back to it.",
      done: config.domains.length > 0,
      section: "domains",
      action: "Add your app's domain",
    },
    {
      label: "First user signed up",
      hint: "Sign up in your app with one of the snippets above; this ticks itself.",
      done: hasUsers,
      section: "users",
      action: "See the users",
    },
    {
      label: "Email server set up",
      hint: "Until then, mail goes out through this server's shared sender (or the dev outbox).",
      done: config.email_config.type === "standard",
      section: "emails",
      action: "Set up your email server",
    },
    {
      label: "OAuth keys of your own",
      hint: "Social sign-in with your own OAuth apps; the shared keys are for trying it out.",
      done: config.oauth_providers.some((provider) => provider.type === "standard"),
      section: "authentication",
      action: "Add OAuth keys",
    },
  ];
}

/** The project's setup, read from its state (config and users), ticking itself as the owner goes. */
export function SetupChecklist() {
  const id = useId();
  const { projectId, admin } = useProjectSettings();
  // The same query as the heading's and the Domains page's (a domain added there shows here at once), looked at
  // again while the page is open, for changes made elsewhere (the API, another tab).
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject(), refetchInterval: RECHECK_MS });
  const config = project.data?.config;
  const users = useQuery({
    queryKey: [...projectKey(projectId), "has-users"],
    queryFn: async () => (await admin.listUsers({ limit: 1 })).items.length > 0,
    // Once someone has signed up, that stays true: no more polling.
    refetchInterval: (query) => (query.state.data ? false : RECHECK_MS),
  });
  const list = config ? steps(config, users.data ?? false) : [];
  const left = list.filter((step) => !step.done).length;

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Checklist</h2>
      {project.isError && !config ? (
        <FailureAlert action="check the project" error={project.error} />
      ) : !config || users.isPending ? (
        <p role="status">Checking the project…</p>
      ) : (
        <>
          <p role="status" className="dashboard-muted">
            {left === 0 ? "All set." : `${list.length - left} of ${list.length} done.`}
          </p>
          <ul className="get-started-checklist" aria-label="Setup checklist">
            {list.map((step) => (
              <li key={step.label} data-done={step.done}>
                <span className="get-started-state">{step.done ? "Done" : "To do"}</span>
                <span>
                  <strong>{step.label}</strong>
                  {step.done ? null : (
                    <>
                      {" · "}
                      <Link to={`/projects/$projectId/${step.section}`} params={{ projectId }}>
                        {step.action}
                      </Link>
                    </>
                  )}
                </span>
                <p className="dashboard-muted">{step.hint}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
