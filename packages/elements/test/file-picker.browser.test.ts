import { expect } from "@esm-bundle/chai";
import { setLocale } from "../src/index.js";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { mount, unmountAll, until, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";
import { signedIn as signedInWithTeams, TEAM_PROJECT } from "./support/teams.js";

/**
 * Issue 16 §3: the picture pickers are buttons with the page's language, not the browser's own file input
 * ("Choose file / No file chosen" in the browser's language, whatever the page's).
 */

const PASSWORD = "correct horse battery";

const text = (el: Element) => el.textContent!.replace(/\s+/g, " ").trim();

/** What a person sees of the picker: the button's text, and whether the native input shows at all. */
function picker(page: Mounted, tag: string): { button: string; nativeInputShows: boolean; input: HTMLInputElement } {
  const button = page.q(`${tag} [part=file-button]`);
  const input = button.querySelector<HTMLInputElement>("input[type=file]")!;
  const box = input.getBoundingClientRect();
  return { button: text(button), nativeInputShows: box.width > 1 || box.height > 1, input };
}

/** A small picture, as a person's photo would arrive from the file picker. */
async function picture(): Promise<File> {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  canvas.getContext("2d")!.fillRect(0, 0, 32, 32);
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
  return new File([blob], "me.png", { type: "image/png" });
}

describe("picture pickers", () => {
  afterEach(async () => {
    unmountAll();
    await setLocale("en");
  });

  it("profile settings: a button in the page's language (French) names the hidden file input, which still takes a picture", async () => {
    await setLocale("fr");
    const project = await createProject();
    const email = uniqueEmail();
    await createUser(project, { email, password: PASSWORD });
    const page = await mount(project, "");
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    page.host.innerHTML = "<auth-profile-settings></auth-profile-settings>";
    await until(() => page.host.querySelector("auth-profile-settings [part=file-button]"));

    const { button, nativeInputShows, input } = picker(page, "auth-profile-settings");
    expect(button).to.equal("Importer une image");
    expect(nativeInputShows).to.equal(false);
    expect(input.labels?.[0] && text(input.labels[0])).to.equal("Importer une image");
    expect(await axe(page.host)).to.deep.equal([]);

    const transfer = new DataTransfer();
    transfer.items.add(await picture());
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    await until(() => page.host.querySelector("auth-profile-settings img[part=avatar]"), 10_000, "the avatar saved and shown");
    expect((await page.app.getUser())?.profileImageUrl).to.be.a("string");
  });

  it("team settings: the team image button in French", async () => {
    await setLocale("fr");
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedInWithTeams(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    await until(() => creator.host.querySelector("auth-team-settings [part=file-button]"));
    const { button, nativeInputShows } = picker(creator, "auth-team-settings");
    expect(button).to.equal("Importer une image d’équipe");
    expect(nativeInputShows).to.equal(false);
  });
});
