import { expect } from "@esm-bundle/chai";
import { createCredential, getCredential, loadWebAuthn, WebAuthnCeremonyError } from "../src/flows/webauthn.js";

/** The browser's failures, as the passkey flows name them (SPEC.md §8), in Chromium itself. */
const challenge = "dGVzdC1jaGFsbGVuZ2UtMTIzNDU2Nzg5MA";

async function failure(promise: Promise<unknown>): Promise<WebAuthnCeremonyError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(WebAuthnCeremonyError);
    return error as WebAuthnCeremonyError;
  }
  throw new Error("the ceremony did not fail");
}

describe("WebAuthn ceremonies", () => {
  it("cancels a pending passkey request when another starts (one abort controller)", async () => {
    // Chromium offers passkey autofill (conditional mediation), headless too.
    expect(await PublicKeyCredential.isConditionalMediationAvailable()).to.equal(true);
    // The library's shared AbortController (private in its types).
    const service = (await loadWebAuthn()).WebAuthnAbortService as unknown as { controller?: AbortController };
    const before = service.controller;
    const autofill = getCredential({ challenge, rpId: location.hostname, userVerification: "preferred" }, true);
    // The library first asks the browser whether autofill is available; the request is pending once it has
    // taken the shared AbortController (the elements start autofill when the form shows, long before a click).
    while (service.controller === before) await new Promise((resolve) => requestAnimationFrame(resolve));
    const second = getCredential({ challenge, rpId: "not-this-site.example" }, false);
    const aborted = await failure(autofill);
    expect(aborted.code).to.equal("ERROR_CEREMONY_ABORTED");
    expect(aborted.message).to.equal("Authentication ceremony was sent an abort signal");
    await failure(second);
  });

  it("names an RP id that is not this site's", async () => {
    const error = await failure(getCredential({ challenge, rpId: "not-this-site.example" }, false));
    expect(error.code).to.equal("ERROR_INVALID_RP_ID");
    expect(error.message).to.equal('The RP ID "not-this-site.example" is invalid for this domain');
  });

  it("names a registration for another site the same way", async () => {
    const error = await failure(
      createCredential({
        challenge,
        rp: { id: "not-this-site.example", name: "Elsewhere" },
        user: { id: "dXNlcg", name: "ada@example.com", displayName: "Ada" },
        pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      }),
    );
    expect(error.code).to.equal("ERROR_INVALID_RP_ID");
  });
});
