/** Wire schemas of the Stack Auth REST API v1, one module per resource. */
export * from "./auth.js";
export * from "./internal-api-keys.js";
export * from "./project-config.js";
export * from "./projects.js";
export * from "./users.js";
export * from "./contact-channels.js";
export * from "./email-flows.js";
export * from "./notification-preferences.js";
export * from "./team-invitations.js";
export * from "./permissions.js";
export * from "./teams.js";
export * from "./project-api-keys.js";
export * from "./mfa-cli.js";
export * from "./passkeys.js";
