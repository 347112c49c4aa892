import { afterAll, beforeAll, expect } from "vitest";
import { signInUser } from "../../src/services/sessions.js";
import { getProject } from "../../src/services/projects.js";
import { api, type ApiResponse } from "./api.js";
import { startTestServer, type TestProject, type TestServer } from "./test-server.js";

/** Shared setup of the users suites: one server per test file, and helpers to call it. */

// A live binding: test files read the server their own beforeAll started.
export let server: TestServer;

export function useServerForFile(vars: Record<string, string> = {}): void {
  beforeAll(async () => {
    server = await startTestServer(vars);
  });
  afterAll(async () => {
    await server?.close();
  });
}

export type Access = "client" | "server" | "admin";
export interface Tokens {
  access_token: string;
  refresh_token: string;
}
export interface Call {
  method?: string;
  body?: unknown;
  tokens?: Tokens;
}

export const email = () => `user-${crypto.randomUUID()}@example.com`;

export function as(project: TestProject, access: Access, path: string, call: Call = {}): Promise<ApiResponse> {
  const headers = { ...project.headers(access), ...(call.tokens ? { "x-stack-access-token": call.tokens.access_token } : {}) };
  return api(server.url, path, { method: call.method, body: call.body, headers });
}

export async function createUser(project: TestProject, body: Record<string, unknown> = {}): Promise<any> {
  const response = await as(project, "server", "/users", { method: "POST", body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export const signIn = async (project: TestProject, userId: string) => signInUser(server.db, server.env, { project: await getProject(server.db, project.projectId), userId });

export async function configure(project: TestProject, override: Record<string, unknown>) {
  const response = await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
  expect(response.status).toBe(200);
}

/** A team in the project (teams have no routes yet), optionally with members. */
export async function createTeam(project: TestProject, memberIds: string[] = []): Promise<string> {
  const team = await server.db
    .insertInto("teams")
    .values({ project_id: project.projectId, display_name: "Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const userId of memberIds) {
    await server.db.insertInto("team_members").values({ project_id: project.projectId, team_id: team.id, user_id: userId, display_name: null, profile_image_url: null }).execute();
  }
  return team.id;
}

export function expectSchemaError(response: ApiResponse, ...fragments: string[]) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.code).toBe("SCHEMA_ERROR");
  for (const fragment of fragments) expect(response.body.error).toContain(fragment);
}

export function expectKnownError(response: ApiResponse, code: string, status: number) {
  expect(response.body.code, JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(status);
}

export const SERVER_READ_KEYS = [
  "auth_with_email", "client_metadata", "client_read_only_metadata", "display_name", "has_password", "id", "is_anonymous",
  "last_active_at_millis", "oauth_providers", "otp_auth_enabled", "passkey_auth_enabled", "primary_email", "primary_email_auth_enabled",
  "primary_email_verified", "profile_image_url", "requires_totp_mfa", "selected_team", "selected_team_id", "server_metadata", "signed_up_at_millis",
];
export const CLIENT_READ_KEYS = [
  "auth_with_email", "client_metadata", "client_read_only_metadata", "display_name", "has_password", "id", "is_anonymous",
  "oauth_providers", "otp_auth_enabled", "passkey_auth_enabled", "primary_email", "primary_email_verified", "profile_image_url",
  "requires_totp_mfa", "selected_team", "selected_team_id", "signed_up_at_millis",
];

