import type { CDPSession, Page } from "playwright-core";

/**
 * Chrome's virtual WebAuthn authenticator on the page (DevTools protocol): a platform authenticator with user
 * verification, answering every ceremony by itself. The passkey end-to-end tests use it instead of a person.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}
