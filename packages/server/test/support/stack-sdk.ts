import { StackAdminApp, StackClientApp, StackServerApp } from "@stackframe/js";
import type { TestProject } from "./test-server.js";

/**
 * The published Stack SDK (@stackframe/js@2.8.41), unchanged, pointed at a test server and project: the
 * interop suites drive Latchkey through it exactly as an app would. Tokens are kept in memory and the SDK
 * never redirects (there is no browser).
 */
export function stackSdk(server: { url: string }, project: TestProject) {
  const common = {
    baseUrl: server.url,
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    tokenStore: "memory" as const,
    redirectMethod: "none" as const,
  };
  return {
    client: () => new StackClientApp(common),
    server: () => new StackServerApp({ ...common, secretServerKey: project.secretServerKey }),
    admin: () => new StackAdminApp({ ...common, secretServerKey: project.secretServerKey, superSecretAdminKey: project.superSecretAdminKey }),
  };
}
