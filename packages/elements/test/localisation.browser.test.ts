import { expect } from "@esm-bundle/chai";
import { getLocale, setLocale } from "../src/index.js";
import { startingLocale } from "../src/base/i18n.js";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";

describe("localisation", () => {
  afterEach(async () => {
    unmountAll();
    await setLocale("en");
  });

  it("starts in the person's remembered choice, else the app's, the page's, then the browser's first shipped language", async () => {
    localStorage.removeItem("latchkey:locale");
    const lang = document.documentElement.lang;
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, "languages")!;
    try {
      document.documentElement.lang = "";
      Object.defineProperty(navigator, "languages", { configurable: true, get: () => ["sv-SE", "ja-JP", "fr"] });
      expect(startingLocale()).to.equal("ja");
      document.documentElement.lang = "nl";
      expect(startingLocale()).to.equal("nl");
      expect(startingLocale("es-MX")).to.equal("es");
      // A language picker's choice, remembered for the next pages, wins over all of them.
      await setLocale("pt", { remember: true });
      expect(getLocale()).to.equal("pt-BR");
      expect(localStorage.getItem("latchkey:locale")).to.equal("pt-BR");
      expect(startingLocale("es-MX")).to.equal("pt-BR");
    } finally {
      localStorage.removeItem("latchkey:locale");
      document.documentElement.lang = lang;
      delete (navigator as { languages?: unknown }).languages;
      Object.defineProperty(Navigator.prototype, "languages", languages);
    }
  });

  it("switches the elements' language at runtime by the <auth-app locale> attribute, errors included", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: "correct horse battery" });
    const page = await mount(project, "<auth-sign-in></auth-sign-in>");
    await until(() => page.q("h2").textContent === "Sign in");

    page.host.setAttribute("locale", "de");
    await until(() => page.q("h2").textContent === "Anmelden", 5_000, "the German heading");
    expect(getLocale()).to.equal("de");
    expect(page.q<HTMLInputElement>("input[name=password]").labels?.[0]?.textContent).to.contain("Passwort");

    fill(page.q<HTMLInputElement>("input[name=email]"), address);
    fill(page.q<HTMLInputElement>("input[name=password]"), "not the password");
    page.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)[0]).not.to.equal("Wrong email or password.");
    expect(alerts(page.host)[0]).to.match(/Passwort/);
  });

  it("matches a language tag to the closest shipped locale", async () => {
    await setLocale("pt");
    expect(getLocale()).to.equal("pt-BR");
    await setLocale("de-AT");
    expect(getLocale()).to.equal("de");
    await setLocale("sv");
    expect(getLocale()).to.equal("en");
  });

  it("lays Arabic out right to left and only then", async () => {
    const project = await createProject();
    const page = await mount(project, "<auth-sign-in></auth-sign-in>");
    await until(() => page.q("input[name=email]"));
    const element = page.q("auth-sign-in");
    expect(element.getAttribute("dir")).to.equal(null);

    await setLocale("ar");
    await until(() => element.getAttribute("dir") === "rtl");
    const email = page.q<HTMLInputElement>("input[name=email]");
    // The label's text starts at the right edge.
    const text = [...email.labels![0]!.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
    const range = document.createRange();
    range.selectNodeContents(text);
    const words = range.getBoundingClientRect();
    const card = page.q(".lk-card").getBoundingClientRect();
    expect(card.right - words.right).to.be.lessThan(words.left - card.left);

    await setLocale("en");
    await until(() => element.getAttribute("dir") === null);
  });

  it("downloads only the active locale's messages", async () => {
    // The test page loads each source module on its own, and once the browser's resource timing buffer
    // (250 entries) is full, later requests are not recorded: start from an empty one.
    performance.clearResourceTimings();
    const before = performance.getEntriesByType("resource").map((e) => e.name);
    await setLocale("fr");
    await setLocale("ja");
    const loaded = performance
      .getEntriesByType("resource")
      .map((e) => e.name)
      .filter((name) => !before.includes(name) && /\/locales\/[^/]+\.json/.test(name))
      .map((name) => name.split("/").pop());
    expect(loaded).to.deep.equal(["fr.json", "ja.json"]);
  });
});
