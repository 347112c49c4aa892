import { describe, expect, it } from "vitest";
import { api } from "../support/api.js";
import { stackSdk } from "../support/stack-sdk.js";
import { createTestProject } from "../support/test-server.js";
import { as, email, expectSchemaError, server } from "../support/users-fixture.js";

// Issue 13 §1: `POST /check-feature-support`, which the reference SDK calls before it throws at a developer
// who used a feature it does not support, answers every caller 200 with a text naming the feature.
describe("POST /check-feature-support", () => {
  const unsupported = (feature: string) => `${feature} is not yet supported. Please reach out to Stack support for more information.`;

  function expectText(response: { status: number; text: string; headers: Headers }, text: string) {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.text).toBe(text);
  }

  it("answers without any authentication", async () => {
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: "Payments" } }), unsupported("Payments"));
  });

  it("answers every access type the same, signed in or not", async () => {
    const project = await createTestProject(server);
    const signedUp = await as(project, "client", "/auth/password/sign-up", { body: { email: email(), password: "correct horse" } });
    for (const access of ["client", "server", "admin"] as const) {
      expectText(await as(project, access, "/check-feature-support", { body: { feature_name: "Data vault" } }), unsupported("Data vault"));
    }
    expectText(await as(project, "client", "/check-feature-support", { body: { feature_name: "Data vault" }, tokens: signedUp.body }), unsupported("Data vault"));
  });

  it("takes the SDK's body: its options with the feature's `name`, any other keys included", async () => {
    expectText(
      await api(server.url, "/check-feature-support", { method: "POST", body: { name: "sendVerificationEmail() on ServerUser", extra: { nested: true } } }),
      unsupported("sendVerificationEmail() on ServerUser"),
    );
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: "A", name: "B" } }), unsupported("A"));
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: {} }), unsupported("This feature"));
    expectText(await api(server.url, "/check-feature-support", { method: "POST" }), unsupported("This feature"));
  });

  it("is answered under /api/latest too", async () => {
    const response = await fetch(`${server.url}/api/latest/check-feature-support`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ feature_name: "X" }) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(unsupported("X"));
  });

  it("refuses a feature_name that is not a string, after casting a number to its text as the protocol does", async () => {
    expectSchemaError(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: { name: "x" } } }), "body.feature_name must be a `string` type");
    const cast = await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: 5 } });
    expect(cast.text).toContain("5");
    expect(cast.body.code).not.toBe("SCHEMA_ERROR");
  });

  it("is what the published SDK throws for a feature it does not support", async () => {
    const project = await createTestProject(server);
    const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: email() } });
    expect(created.status).toBe(201);
    const user = await stackSdk(server, project).server().getUser(created.body.id);
    // ServerUser.sendVerificationEmail() is one the SDK reports through /check-feature-support.
    await expect(user!.sendVerificationEmail()).rejects.toThrow(unsupported("sendVerificationEmail() on ServerUser"));
  });
});
