import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInUser } from "../src/services/sessions.js";
import { api, type ApiResponse } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { bmp, dataUrl, gif, jpeg, png, webp } from "./support/tiny-images.js";
import { as, configure, createUser, email, expectSchemaError, server, signIn, useServerForFile } from "./support/users-fixture.js";

// One server for the file; the profile images section starts its own, reachable at its public URL.
useServerForFile();

// Issue 13 §2: what servers and clients see when they create and change users, as the reference answers.
describe("user writes", () => {
  const INVALID_HASH = "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.";
  const patchUser = (project: TestProject, userId: string, body: unknown) => as(project, "server", `/users/${userId}`, { method: "PATCH", body });
  const readUser = async (project: TestProject, userId: string) => (await as(project, "server", `/users/${userId}`)).body;
  const signInWithPassword = (project: TestProject, address: string, password: string) =>
    api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password } });

  describe("POST /users with personal teams on sign-up", () => {
    it("answers without a selected team, which later reads show", async () => {
      const project = await createTestProject(server);
      await configure(project, { "teams.createPersonalTeamOnSignUp": true });
      const created = await as(project, "server", "/users", { method: "POST", body: { display_name: "Ada" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ selected_team: null, selected_team_id: null });
      const read = await readUser(project, created.body.id);
      expect(read.selected_team_id).toEqual(expect.any(String));
      expect(read.selected_team).toMatchObject({ id: read.selected_team_id, display_name: "Ada's Team" });
    });

    it("names the team after the display name, else the email, else 'Personal Team'", async () => {
      const project = await createTestProject(server);
      await configure(project, { "teams.createPersonalTeamOnSignUp": true });
      const address = email();
      const teamOf = async (body: Record<string, unknown>) => (await readUser(project, (await createUser(project, body)).id)).selected_team.display_name;
      expect(await teamOf({ display_name: "Grace", primary_email: email() })).toBe("Grace's Team");
      expect(await teamOf({ primary_email: address })).toBe(`${address}'s Team`);
      expect(await teamOf({})).toBe("Personal Team");
      expect(await teamOf({ display_name: "" })).toBe("Personal Team");
    });
  });

  describe("auth_with_email", () => {
    it("is has_password or otp_auth_enabled, whatever the contact channels say", async () => {
      const project = await createTestProject(server);
      const cases: Array<[Record<string, unknown>, boolean]> = [
        [{}, false],
        [{ primary_email: email(), primary_email_auth_enabled: true, primary_email_verified: true }, false],
        [{ password: "a password" }, true],
        [{ primary_email: email(), primary_email_auth_enabled: false, password: "a password" }, true],
        [{ otp_auth_enabled: true }, true],
      ];
      for (const [body, expected] of cases) {
        const user = await createUser(project, body);
        expect(user.auth_with_email, JSON.stringify(body)).toBe(expected);
        const client = await as(project, "client", "/users/me", { tokens: await signIn(project, user.id) });
        expect(client.body.auth_with_email).toBe(expected);
      }
      const user = await createUser(project);
      expect((await patchUser(project, user.id, { otp_auth_enabled: true })).body.auth_with_email).toBe(true);
      expect((await patchUser(project, user.id, { otp_auth_enabled: false })).body.auth_with_email).toBe(false);
    });
  });

  describe("passwords a server sets", () => {
    it("have no minimum length, on create and update, and sign in", async () => {
      const project = await createTestProject(server);
      const address = email();
      const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: address, primary_email_auth_enabled: true, password: "a" } });
      expect(created.status).toBe(201);
      expect(created.body.has_password).toBe(true);
      expect((await signInWithPassword(project, address, "a")).status).toBe(200);

      const updated = await patchUser(project, created.body.id, { password: "" });
      expect(updated.status).toBe(200);
      expect(updated.body.has_password).toBe(true);
      expect((await signInWithPassword(project, address, "")).status).toBe(200);
    });

    it("are at most 70 characters", async () => {
      const project = await createTestProject(server);
      expectSchemaError(await as(project, "server", "/users", { method: "POST", body: { password: "x".repeat(71) } }), "body.password must be at most 70 characters");
      expect((await as(project, "server", "/users", { method: "POST", body: { password: "x".repeat(70) } })).status).toBe(201);
    });

    it("keep their minimum for sign-up", async () => {
      const project = await createTestProject(server);
      await configure(project, { "auth.password.allowSignIn": true });
      const response = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: email(), password: "short" } });
      expect(response.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 } });
    });
  });

  describe("password hashes a server imports", () => {
    // A real cost-4 hash with another cost written in (whether the cost is accepted is decided before any hashing).
    const withCost = (cost: string) => {
      const hash = bcrypt.hashSync("imported password", 4);
      expect(hash).toMatch(/^\$2[aby]\$04\$/);
      return `${hash.slice(0, 4)}${cost}${hash.slice(6)}`;
    };

    it("refuse a bcrypt cost above 16 with the reference's text", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project);
      for (const cost of ["17", "20", "31"]) {
        const created = await as(project, "server", "/users", { method: "POST", body: { password_hash: withCost(cost) } });
        expect(created.status).toBe(400);
        expect(created.text).toBe(INVALID_HASH);
        const updated = await patchUser(project, user.id, { password_hash: withCost(cost) });
        expect(updated.status).toBe(400);
        expect(updated.text).toBe(INVALID_HASH);
      }
      expect((await readUser(project, user.id)).has_password).toBe(false);
    });

    it("accept bcrypt costs up to 16", async () => {
      const project = await createTestProject(server);
      const address = email();
      const imported = await createUser(project, { primary_email: address, primary_email_auth_enabled: true, password_hash: withCost("04") });
      expect((await signInWithPassword(project, address, "imported password")).status).toBe(200);
      expect((await patchUser(project, imported.id, { password_hash: withCost("16") })).body.has_password).toBe(true);
    });
  });

  describe("emails a server sets", () => {
    it("are checked loosely on create and update", async () => {
      const project = await createTestProject(server);
      const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: "invalid_email@gmai" } });
      expect(created.status).toBe(201);
      expect(created.body.primary_email).toBe("invalid_email@gmai");
      for (const loose of ["user@example", "user@example.c", ".leading@example.com"]) {
        expect((await patchUser(project, created.body.id, { primary_email: loose })).body.primary_email).toBe(loose);
      }
      for (const bad of ["plainaddress", "user@@example.com", "user@", `${"a".repeat(250)}@example.com`]) {
        expectSchemaError(await as(project, "server", "/users", { method: "POST", body: { primary_email: bad } }), "body.primary_email must be a valid email");
        expectSchemaError(await patchUser(project, created.body.id, { primary_email: bad }), "body.primary_email must be a valid email");
      }
    });

    it("stay strictly checked for sign-up and sign-in", async () => {
      const project = await createTestProject(server);
      await configure(project, { "auth.password.allowSignIn": true });
      for (const path of ["/auth/password/sign-up", "/auth/password/sign-in"]) {
        const response = await api(server.url, path, { headers: project.headers("client"), body: { email: "invalid_email@gmai", password: "correct horse" } });
        expectSchemaError(response, "body.email must be a valid email");
      }
    });
  });

  describe("display names", () => {
    it("store an empty name as null, for servers and clients", async () => {
      const project = await createTestProject(server);
      const created = await createUser(project, { display_name: "" });
      expect(created.display_name).toBeNull();
      expect((await patchUser(project, created.id, { display_name: "Ada" })).body.display_name).toBe("Ada");
      expect((await patchUser(project, created.id, { display_name: "" })).body.display_name).toBeNull();
      const tokens = await signIn(project, created.id);
      await patchUser(project, created.id, { display_name: "Ada" });
      const cleared = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { display_name: "" } });
      expect(cleared.body.display_name).toBeNull();
      const row = await server.db.selectFrom("users").select("display_name").where("id", "=", created.id).executeTakeFirstOrThrow();
      expect(row.display_name).toBeNull();
    });
  });

  describe("changing the primary email through the server", () => {
    it("replaces the value in place and keeps it verified", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), primary_email_verified: true, primary_email_auth_enabled: true });
      const channelsOf = () => server.db.selectFrom("contact_channels").select(["id", "value", "is_verified", "used_for_auth"]).where("user_id", "=", user.id).execute();
      const [before] = await channelsOf();

      const address = email();
      const changed = await patchUser(project, user.id, { primary_email: address });
      expect(changed.body).toMatchObject({ primary_email: address, primary_email_verified: true, primary_email_auth_enabled: true });
      expect(await channelsOf()).toEqual([{ id: before!.id, value: address, is_verified: true, used_for_auth: true }]);
      // The new address signs in.
      await patchUser(project, user.id, { password: "a password" });
      expect((await signInWithPassword(project, address, "a password")).status).toBe(200);
    });

    it("keeps an unverified email unverified, unless the server says otherwise", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email() });
      expect((await patchUser(project, user.id, { primary_email: email() })).body.primary_email_verified).toBe(false);
      expect((await patchUser(project, user.id, { primary_email: email(), primary_email_verified: true })).body.primary_email_verified).toBe(true);
      expect((await patchUser(project, user.id, { primary_email: email(), primary_email_verified: false })).body.primary_email_verified).toBe(false);
    });
  });
});

/**
 * Profile images (issue 13 §2): a client's `PATCH /users/me` and team create/update take only an image data
 * URL (`data:image/(png|jpg|jpeg|gif|bmp|webp);base64,…`), anything else is 400 `Invalid profile image
 * URL`; servers may also set http(s) URLs. An uploaded image is kept outside the row and read back as a URL
 * this server serves, without credentials, with its own content type.
 */
describe("profile images", () => {
  // This section's own server, reachable at its public URL: here `server` (and the `as` below) mean this one, not the file's shared one.
  let server: TestServer;

  beforeAll(async () => {
    // The image URLs the server hands out start with its public URL: make that where it listens.
    server = await startTestServer(await reachablePublicUrl());
  });
  afterAll(async () => {
    await server?.close();
  });

  type Access = "client" | "server" | "admin";
  interface Tokens {
    access_token: string;
  }

  function as(project: TestProject, access: Access, path: string, call: { method?: string; body?: unknown; tokens?: Tokens } = {}): Promise<ApiResponse> {
    const headers = { ...project.headers(access), ...(call.tokens ? { "x-stack-access-token": call.tokens.access_token } : {}) };
    return api(server.url, path, { method: call.method, body: call.body, headers });
  }

  async function projectWithTeams(): Promise<TestProject> {
    const project = await createTestProject(server);
    const configured = await as(project, "admin", "/internal/config/override", {
      method: "PATCH",
      body: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) },
    });
    expect(configured.status).toBe(200);
    return project;
  }

  async function signedInUser(project: TestProject, body: Record<string, unknown> = {}): Promise<{ id: string; tokens: Tokens }> {
    const created = await as(project, "server", "/users", { method: "POST", body });
    expect(created.status, created.text).toBe(201);
    return { id: created.body.id, tokens: await signInUser(server.db, server.env, { projectId: project.projectId, userId: created.body.id }) };
  }

  const patchMe = (project: TestProject, tokens: Tokens, body: Record<string, unknown>) => as(project, "client", "/users/me", { method: "PATCH", body, tokens });

  const IMAGE_URL = () => new RegExp(`^${server.env.publicUrl.replace(/[.]/g, "\\.")}/api/v1/profile-images/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`);

  /** The image at a URL the server returned, fetched as an `<img>` would: no x-stack headers. */
  async function fetchImage(url: string) {
    const response = await fetch(url);
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  async function expectServed(url: string, contentType: string, bytes: Uint8Array) {
    expect(url).toMatch(IMAGE_URL());
    const image = await fetchImage(url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe(contentType);
    expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.bytes).toEqual(bytes);
  }

  async function expectGone(url: string) {
    const image = await fetchImage(url);
    expect(image.status).toBe(404);
    expect(new TextDecoder().decode(image.bytes)).toBe("Profile image not found");
  }

  function expectInvalidImage(response: ApiResponse) {
    expect(response.status, response.text).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.text).toBe("Invalid profile image URL");
  }

  const storedImageCount = async (projectId: string) => Number((await server.db.selectFrom("profile_images").select((eb) => eb.fn.countAll().as("n")).where("project_id", "=", projectId).executeTakeFirstOrThrow()).n);

  describe("client PATCH /users/me", () => {
    const accepted: Array<[declared: string, contentType: string, bytes: Uint8Array]> = [
      ["png", "image/png", png()],
      ["jpg", "image/jpeg", jpeg()],
      ["jpeg", "image/jpeg", jpeg()],
      ["gif", "image/gif", gif()],
      ["bmp", "image/bmp", bmp()],
      ["webp", "image/webp", webp()],
    ];

    it.each(accepted)("stores a data:image/%s upload and returns a URL that serves its bytes as %s without credentials", async (declared, contentType, bytes) => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const updated = await patchMe(project, user.tokens, { profile_image_url: dataUrl(declared, bytes) });
      expect(updated.status, updated.text).toBe(200);
      await expectServed(updated.body.profile_image_url, contentType, bytes);
      // Readers see the same URL, and the user's row holds it rather than the data.
      expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.profile_image_url).toBe(updated.body.profile_image_url);
      expect((await as(project, "server", `/users/${user.id}`)).body.profile_image_url).toBe(updated.body.profile_image_url);
      const row = await server.db.selectFrom("users").select("profile_image_url").where("id", "=", user.id).executeTakeFirstOrThrow();
      expect(row.profile_image_url).toBe(updated.body.profile_image_url);
    });

    it.each([
      ["an https URL", "https://example.com/avatar.png"],
      ["an http URL", "http://example.com/avatar.png"],
      ["an SVG data URL", `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`],
      ["a data URL that is not an image", `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`],
      ["an image data URL that is not base64", "data:image/png,%89PNG"],
      ["a PNG data URL holding a GIF", dataUrl("png", gif())],
      ["a JPEG data URL holding a PNG", dataUrl("jpeg", png())],
      ["a WebP data URL holding a BMP", dataUrl("webp", bmp())],
      ["a GIF data URL holding text", `data:image/gif;base64,${Buffer.from("not a picture").toString("base64")}`],
      ["an image URL of this server that names no image", `${"PUBLIC_URL"}/api/v1/profile-images/${crypto.randomUUID()}`],
    ])("refuses %s with 400 `Invalid profile image URL` and keeps the image it had", async (_what, url) => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const before = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      expectInvalidImage(await patchMe(project, user.tokens, { profile_image_url: url.replace("PUBLIC_URL", server.env.publicUrl), display_name: "Changed" }));
      const after = await as(project, "client", "/users/me", { tokens: user.tokens });
      expect(after.body).toMatchObject({ profile_image_url: before, display_name: null });
      await expectServed(before, "image/png", png());
    });

    it("accepts the image URL it read back, so a client that writes the user it read keeps its image", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const url = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("gif", gif()) })).body.profile_image_url;
      const again = await patchMe(project, user.tokens, { profile_image_url: url, display_name: "Ada" });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ profile_image_url: url, display_name: "Ada" });
      await expectServed(url, "image/gif", gif());
      expect(await storedImageCount(project.projectId)).toBe(1);
    });

    it("refuses the image URL of another project's image", async () => {
      const other = await projectWithTeams();
      const stranger = await signedInUser(other);
      const theirs = (await patchMe(other, stranger.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      expectInvalidImage(await patchMe(project, user.tokens, { profile_image_url: theirs }));
      expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.profile_image_url).toBeNull();
    });

    it("deletes the earlier image when a new one replaces it or the image is removed", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const first = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      const second = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png([0, 0, 255, 255])) })).body.profile_image_url;
      expect(second).not.toBe(first);
      await expectGone(first);
      await expectServed(second, "image/png", png([0, 0, 255, 255]));
      const removed = await patchMe(project, user.tokens, { profile_image_url: null });
      expect(removed.body.profile_image_url).toBeNull();
      await expectGone(second);
      expect(await storedImageCount(project.projectId)).toBe(0);
    });

    it("leaves the image alone when the update does not name it", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const url = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("webp", webp()) })).body.profile_image_url;
      expect((await patchMe(project, user.tokens, { display_name: "Grace" })).body.profile_image_url).toBe(url);
      await expectServed(url, "image/webp", webp());
    });
  });

  describe("server callers", () => {
    it("may set an https URL, which is kept as given", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      for (const access of ["server", "admin"] as const) {
        const url = `https://cdn.example.com/${access}/avatar.png`;
        const updated = await as(project, access, `/users/${user.id}`, { method: "PATCH", body: { profile_image_url: url } });
        expect(updated.status, updated.text).toBe(200);
        expect(updated.body.profile_image_url).toBe(url);
      }
      const created = await as(project, "server", "/users", { method: "POST", body: { profile_image_url: "https://cdn.example.com/new.png" } });
      expect(created.body.profile_image_url).toBe("https://cdn.example.com/new.png");
      expect(await storedImageCount(project.projectId)).toBe(0);
    });

    it("stores a server's image data URL outside the row too, on create and update", async () => {
      const project = await projectWithTeams();
      const created = await as(project, "server", "/users", { method: "POST", body: { profile_image_url: dataUrl("jpg", jpeg()) } });
      expect(created.status, created.text).toBe(201);
      await expectServed(created.body.profile_image_url, "image/jpeg", jpeg());
      const updated = await as(project, "server", `/users/${created.body.id}`, { method: "PATCH", body: { profile_image_url: dataUrl("bmp", bmp()) } });
      await expectServed(updated.body.profile_image_url, "image/bmp", bmp());
      await expectGone(created.body.profile_image_url);
    });

    it("keeps a data URL it cannot serve (another type) as given, since only images it checked are served from its origin", async () => {
      const project = await projectWithTeams();
      const svg = `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`;
      const created = await as(project, "server", "/users", { method: "POST", body: { profile_image_url: svg } });
      expect(created.body.profile_image_url).toBe(svg);
      expect(await storedImageCount(project.projectId)).toBe(0);
    });

    it("deleting a user deletes their image", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const url = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      expect((await as(project, "server", `/users/${user.id}`, { method: "DELETE" })).status).toBe(200);
      await expectGone(url);
      expect(await storedImageCount(project.projectId)).toBe(0);
    });
  });

  describe("teams", () => {
    const createTeam = (project: TestProject, tokens: Tokens, body: Record<string, unknown>) => as(project, "client", "/teams", { method: "POST", body: { display_name: "Team", ...body }, tokens });
    const patchTeam = (project: TestProject, access: Access, teamId: string, body: Record<string, unknown>, tokens?: Tokens) => as(project, access, `/teams/${teamId}`, { method: "PATCH", body, tokens });

    it("a client creates a team with an uploaded image, and updates it with another", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const created = await createTeam(project, user.tokens, { profile_image_url: dataUrl("png", png()) });
      expect(created.status, created.text).toBe(201);
      await expectServed(created.body.profile_image_url, "image/png", png());
      const updated = await patchTeam(project, "client", created.body.id, { profile_image_url: dataUrl("gif", gif()) }, user.tokens);
      expect(updated.status, updated.text).toBe(200);
      await expectServed(updated.body.profile_image_url, "image/gif", gif());
      await expectGone(created.body.profile_image_url);
      // Writing back the URL read keeps it.
      const again = await patchTeam(project, "client", created.body.id, { profile_image_url: updated.body.profile_image_url, display_name: "Renamed" }, user.tokens);
      expect(again.body).toMatchObject({ profile_image_url: updated.body.profile_image_url, display_name: "Renamed" });
      expect((await as(project, "server", `/teams/${created.body.id}`)).body.profile_image_url).toBe(updated.body.profile_image_url);
    });

    it("refuses a client's http URL or mislabelled image with 400 `Invalid profile image URL`, creating nothing", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      expectInvalidImage(await createTeam(project, user.tokens, { profile_image_url: "https://example.com/team.png" }));
      expectInvalidImage(await createTeam(project, user.tokens, { profile_image_url: dataUrl("gif", png()) }));
      expect((await as(project, "client", "/teams?user_id=me", { tokens: user.tokens })).body.items).toEqual([]);

      const team = (await createTeam(project, user.tokens, {})).body;
      expectInvalidImage(await patchTeam(project, "client", team.id, { profile_image_url: "http://example.com/team.png" }, user.tokens));
      expectInvalidImage(await patchTeam(project, "client", team.id, { profile_image_url: dataUrl("bmp", jpeg()) }, user.tokens));
      expect((await as(project, "server", `/teams/${team.id}`)).body.profile_image_url).toBeNull();
      expect(await storedImageCount(project.projectId)).toBe(0);
    });

    it("checks the image before the permission to update the team, as the protocol does", async () => {
      const project = await projectWithTeams();
      const owner = await signedInUser(project);
      const team = (await createTeam(project, owner.tokens, {})).body;
      const outsider = await signedInUser(project);
      expectInvalidImage(await patchTeam(project, "client", team.id, { profile_image_url: "https://example.com/team.png" }, outsider.tokens));
    });

    it("a server sets an https URL as given, and deleting the team deletes its uploaded image", async () => {
      const project = await projectWithTeams();
      const created = await as(project, "server", "/teams", { method: "POST", body: { display_name: "Team", profile_image_url: "https://cdn.example.com/team.png" } });
      expect(created.body.profile_image_url).toBe("https://cdn.example.com/team.png");
      const uploaded = await patchTeam(project, "server", created.body.id, { profile_image_url: dataUrl("webp", webp()) });
      await expectServed(uploaded.body.profile_image_url, "image/webp", webp());
      expect((await as(project, "server", `/teams/${created.body.id}`, { method: "DELETE" })).status).toBe(200);
      await expectGone(uploaded.body.profile_image_url);
      expect(await storedImageCount(project.projectId)).toBe(0);
    });

    it("a team given a user's image URL gets its own copy, which outlives the user", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const avatar = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      const team = (await createTeam(project, user.tokens, { profile_image_url: avatar })).body;
      expect(team.profile_image_url).not.toBe(avatar);
      await expectServed(team.profile_image_url, "image/png", png());
      expect((await as(project, "server", `/users/${user.id}`, { method: "DELETE" })).status).toBe(200);
      await expectGone(avatar);
      await expectServed(team.profile_image_url, "image/png", png());
    });
  });

  describe("team member profiles", () => {
    it("store an uploaded image per membership, which goes when the member leaves", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const team = (await as(project, "client", "/teams", { method: "POST", body: { display_name: "Team" }, tokens: user.tokens })).body;
      const profile = await as(project, "client", `/team-member-profiles/${team.id}/me`, { method: "PATCH", body: { profile_image_url: dataUrl("gif", gif()) }, tokens: user.tokens });
      expect(profile.status, profile.text).toBe(200);
      await expectServed(profile.body.profile_image_url, "image/gif", gif());
      // The user's own image is another one.
      expect((await as(project, "client", "/users/me", { tokens: user.tokens })).body.profile_image_url).toBeNull();
      expect((await as(project, "client", `/team-memberships/${team.id}/me`, { method: "DELETE", body: {}, tokens: user.tokens })).status).toBe(200);
      await expectGone(profile.body.profile_image_url);
    });
  });

  describe("GET /profile-images/{image_id}", () => {
    it("answers 404 for an id that names no image", async () => {
      const response = await api(server.url, `/profile-images/${crypto.randomUUID()}`);
      expect(response.status).toBe(404);
      expect(response.text).toBe("Profile image not found");
    });

    it("is served under /api/latest as well, without any x-stack header", async () => {
      const project = await projectWithTeams();
      const user = await signedInUser(project);
      const url: string = (await patchMe(project, user.tokens, { profile_image_url: dataUrl("png", png()) })).body.profile_image_url;
      const latest = await fetchImage(url.replace("/api/v1/", "/api/latest/"));
      expect(latest.status).toBe(200);
      expect(latest.bytes).toEqual(png());
    });
  });

  describe("the published SDK (@stackframe/js 2.8.41)", () => {
    it("uploads a user's and a team's image as data URLs, reads back the served URLs, and keeps them when writing them back", async () => {
      const project = await projectWithTeams();
      const app = stackSdk(server, project).client();
      const email = `sdk-${crypto.randomUUID()}@example.com`;
      const signUp = await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" });
      expect(signUp.status).toBe("ok");

      await (await app.getUser({ or: "throw" })).update({ profileImageUrl: dataUrl("jpeg", jpeg()) });
      const url = (await app.getUser({ or: "throw" })).profileImageUrl!;
      await expectServed(url, "image/jpeg", jpeg());
      await (await app.getUser({ or: "throw" })).update({ displayName: "Ada", profileImageUrl: url });
      expect(await app.getUser({ or: "throw" })).toMatchObject({ displayName: "Ada", profileImageUrl: url });

      const team = await (await app.getUser({ or: "throw" })).createTeam({ displayName: "Engines", profileImageUrl: dataUrl("png", png()) });
      await expectServed(team.profileImageUrl!, "image/png", png());
      await team.update({ displayName: "Difference Engines", profileImageUrl: team.profileImageUrl });
      const [listed] = await (await app.getUser({ or: "throw" })).listTeams();
      expect(listed).toMatchObject({ displayName: "Difference Engines", profileImageUrl: team.profileImageUrl });
    });
  });
});
