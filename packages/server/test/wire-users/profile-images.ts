import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInUser } from "../../src/services/sessions.js";
import { getProject } from "../../src/services/projects.js";
import { api, type ApiResponse } from "../support/api.js";
import { stackSdk } from "../support/stack-sdk.js";
import { createTestProject, reachablePublicUrl, startTestServer, type TestProject, type TestServer } from "../support/test-server.js";
import { bmp, dataUrl, gif, jpeg, png, webp } from "../support/tiny-images.js";
import { email } from "../support/users-fixture.js";

/**
 * Profile images (issue 13 §2): a client's `PATCH /users/me` and team create/update take only an image data
 * URL (`data:image/(png|jpg|jpeg|gif|bmp|webp);base64,…`), anything else is 400 `Invalid profile image
 * URL`; servers may also set http(s) URLs. An uploaded image is kept outside the row and read back as a URL
 * this server serves, without credentials, with its own content type.
 */
describe("profile images", () => {
  // This area's own server, reachable at its public URL.
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
    return { id: created.body.id, tokens: await signInUser(server.db, server.env, { project: await getProject(server.db, project.projectId), userId: created.body.id }) };
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
