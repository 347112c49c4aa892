import * as sdk41 from "@stackframe/js";
import * as sdk108 from "@stackframe/js-2.8.108";
import type { TestProject } from "./test-server.js";

/** The published SDK versions Latchkey answers (issue 14): 2.8.41 speaks x-stack-*, 2.8.108 x-hexclave-*. */
export const SDK_VERSIONS = ["2.8.41", "2.8.108"] as const;
export type SdkVersion = (typeof SDK_VERSIONS)[number];

/**
 * The published Stack SDK (@stackframe/js, 2.8.41 unless another version is named), unchanged, pointed at a
 * test server and project: the interop suites drive Latchkey through it exactly as an app would. Tokens are
 * kept in memory and the SDK never redirects (there is no browser).
 *
 * Both versions' apps are typed as 2.8.41's: the calls the suites make have the same signatures in both.
 */
export function stackSdk(server: { url: string }, project: TestProject, version: SdkVersion = "2.8.41") {
  const common = {
    baseUrl: server.url,
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    tokenStore: "memory" as const,
    redirectMethod: "none" as const,
  };
  const apps = (version === "2.8.41" ? sdk41 : sdk108) as unknown as typeof sdk41;
  return {
    client: () => new apps.StackClientApp(common),
    server: () => new apps.StackServerApp({ ...common, secretServerKey: project.secretServerKey }),
    admin: () => new apps.StackAdminApp({ ...common, secretServerKey: project.secretServerKey, superSecretAdminKey: project.superSecretAdminKey }),
  };
}
