import { describe, expect, it } from "vitest";
import { api } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { as, configure, email, expectSchemaError, server } from "../support/users-fixture.js";
import { closedPort } from "../support/ports.js";

// Issue 13: the email routes, now declared, answer with exactly the reference's fields (stack-shared
// interface/crud/emails.js and notification-preferences.js) and refuse unknown keys as it does.
describe("email route shapes", () => {
  const TRANSACTIONAL = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef";
  const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

  async function signUp(project: TestProject) {
    const response = await as(project, "client", "/auth/password/sign-up", { body: { email: email(), password: "correct horse" } });
    expect(response.status).toBe(200);
    return { userId: response.body.user_id as string, tokens: response.body };
  }

  describe("notification preferences", () => {
    it("answer each category with exactly notification_category_id, notification_category_name, enabled and can_disable", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const list = await as(project, "client", "/emails/notification-preference/me", { tokens: user.tokens });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        items: [
          { notification_category_id: TRANSACTIONAL, notification_category_name: "Transactional", enabled: true, can_disable: false },
          { notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: true, can_disable: true },
        ],
        is_paginated: false,
      });
      const updated = await as(project, "server", `/emails/notification-preference/${user.userId}/${MARKETING}`, { method: "PATCH", body: { enabled: false } });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: false, can_disable: true });
    });

    it("refuse unknown keys in the body and the query", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      expectSchemaError(
        await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body: { enabled: false, extra: 1 }, tokens: user.tokens }),
        "body contains unknown properties: extra",
      );
      expectSchemaError(await as(project, "client", "/emails/notification-preference/me?extra=1", { tokens: user.tokens }), "query contains unknown properties: extra");
      expectSchemaError(await api(server.url, "/emails/unsubscribe-link?code=x&extra=1"), "query contains unknown properties: extra");
    });
  });

  describe("POST /emails/send-email", () => {
    it("answers results of user_id and, for users with a primary email, user_email", async () => {
      const project = await createTestProject(server);
      // A project on its own email server (as the protocol requires); nothing listens there, so delivery fails and is recorded.
      await configure(project, { "emails.server": { isShared: false, host: "127.0.0.1", port: await closedPort(), username: "u", password: "p", senderName: "S", senderEmail: "s@example.com" } });
      const withEmail = await as(project, "server", "/users", { method: "POST", body: { primary_email: email() } });
      const without = await as(project, "server", "/users", { method: "POST", body: {} });
      const response = await as(project, "server", "/emails/send-email", { body: { user_ids: [withEmail.body.id, without.body.id], subject: "Hi", html: "<p>Hi</p>" } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ results: [{ user_id: withEmail.body.id, user_email: withEmail.body.primary_email }, { user_id: without.body.id }] });
    });
  });

  describe("POST /internal/send-test-email", () => {
    const config = { host: "127.0.0.1", port: 1, username: "u", password: "p", sender_name: "S", sender_email: "s@example.com" };

    it("lists missing email_config fields in the protocol's order", async () => {
      const project = await createTestProject(server);
      const response = await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: {} } });
      expectSchemaError(response);
      const fields = ["host", "port", "username", "password", "sender_name", "sender_email"];
      expect(response.body.error).toBe(`Request validation failed on POST /api/v1/internal/send-test-email:\n${fields.map((f) => `  - body.email_config.${f} must be defined`).join("\n")}`);
    });

    it("refuses unknown keys in the body and in email_config", async () => {
      const project = await createTestProject(server);
      expectSchemaError(await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: config, extra: 1 } }), "body contains unknown properties: extra");
      expectSchemaError(
        await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: { ...config, secure: true } } }),
        "body.email_config contains unknown properties: secure",
      );
    });
  });

  describe("GET /internal/emails", () => {
    it("answers each sent email with exactly id, subject, sent_at_millis, to, sender_config and error", async () => {
      const project = await createTestProject(server);
      const invited = email();
      const sent = await as(project, "admin", "/internal/send-sign-in-invitation", { body: { email: invited, callback_url: "http://localhost:3000/handler/sign-in" } });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ success: true });
      const list = await as(project, "admin", "/internal/emails");
      expect(list.status).toBe(200);
      expect(Object.keys(list.body).sort()).toEqual(["is_paginated", "items"]);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0]).toEqual({
        id: expect.any(String),
        subject: expect.any(String),
        sent_at_millis: expect.any(Number),
        to: [invited],
        // Shared mail goes out under the project's name, which the log shows as its sender name.
        sender_config: { type: "shared", sender_name: "Test project", sender_email: server.env.emailSender },
        error: null,
      });
    });
  });

  describe("the OpenAPI document", () => {
    it("describes the contact-channel and email routes with their answers", async () => {
      const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      const channel = document.paths["/contact-channels/{user_id}/{contact_channel_id}"];
      expect(Object.keys(channel).sort()).toEqual(["delete", "get", "patch"]);
      expect(channel.get.responses["200"].content["application/json"].schema.required).toEqual(
        expect.arrayContaining(["id", "user_id", "type", "value", "is_primary", "is_verified", "used_for_auth"]),
      );
      const legacy = document.paths["/contact-channels/send-verification-code"].post;
      expect(legacy.deprecated).toBe(true);
      expect(legacy.security.every((alternative: Record<string, unknown>) => "AccessToken" in alternative)).toBe(true);
      expect(document.paths["/check-feature-support"].post.responses["200"].content).toHaveProperty("text/plain");
      for (const path of ["/emails/notification-preference/{user_id}", "/emails/send-email", "/emails/unsubscribe-link", "/internal/emails", "/internal/send-test-email", "/internal/send-sign-in-invitation"]) {
        expect(document.paths, path).toHaveProperty([path]);
      }
    });
  });

});
