import { QueryState } from "../../components/query-state.js";
import { ConfigSwitchesForm } from "./project-config/config-switches-form.js";
import { useAdminProject } from "./project-config/project-config-queries.js";
import { TrustedDomainsCard } from "./project-config/trusted-domains-card.js";
import "./project-config/project-config.css";
import "./project-config/domains.css";

/**
 * Where the project's users may be sent after signing in: trusted domains with their handler paths, and
 * localhost. This page is the target of the server's fix links for domain problems (SPEC §2).
 */
export function DomainsPage() {
  const project = useAdminProject();
  return (
    <QueryState query={project} what="the project's domains">
      {({ config, isProductionMode }) => (
        <>
          <TrustedDomainsCard config={config} />
          <ConfigSwitchesForm
            title="Localhost"
            config={config}
            fields={[
              {
                name: "allow_localhost",
                label: "Allow localhost",
                hint: isProductionMode
                  ? "This project is in production mode, where localhost should be turned off."
                  : "Apps on localhost may use the project, for development. Turn it off before going to production.",
              },
            ]}
          />
        </>
      )}
    </QueryState>
  );
}
