import type { ProjectConfig } from "./project-config.js";
import { isLocalhost, trustedDomainBaseUrls } from "./trusted-domains.js";

/**
 * Production-mode checks (SPEC.md §5): what stands between a project and production, each with a
 * link to the dashboard page that fixes it. The published admin SDK computes the same list itself
 * from the admin project read (`project.getProductionModeErrors()`); nothing here is on the wire.
 */

export interface ProductionModeProblem {
  message: string;
  /** Dashboard route, relative to the dashboard: `/projects/{id}/domains`. */
  relativeFixUrl: string;
}

/**
 * The problems of a project's domain settings, whether or not it is in production mode yet (the
 * dashboard shows them before the switch is turned on). Empty when the project is ready.
 */
export function getProductionModeProblems(input: { projectId: string; config: ProjectConfig }): ProductionModeProblem[] {
  const relativeFixUrl = `/projects/${input.projectId}/domains`;
  const problems: ProductionModeProblem[] = [];
  if (input.config.domains.allowLocalhost) {
    problems.push({ message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", relativeFixUrl });
  }
  // In the order the admin project read lists the domains (by domain), from which the SDK computes the same list.
  for (const domain of [...trustedDomainBaseUrls(input.config)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    let url: URL;
    try {
      // Wildcards are not URL syntax; a placeholder label stands in for them while parsing.
      url = new URL(domain.replace(/\*+/g, "wildcard-placeholder"));
    } catch {
      problems.push({ message: `Trusted domain is not a valid URL: ${domain}`, relativeFixUrl });
      continue;
    }
    if (isLocalhost(url)) {
      problems.push({ message: `Localhost domains are not allowed to be trusted in production mode: ${domain}`, relativeFixUrl });
    } else if (/^\d+(\.\d+)*$/.test(url.hostname)) {
      problems.push({ message: `Direct IPs are not valid for trusted domains in production mode: ${domain}`, relativeFixUrl });
    } else if (url.protocol !== "https:") {
      problems.push({ message: `Trusted domains should be HTTPS: ${domain}`, relativeFixUrl });
    }
  }
  return problems;
}
