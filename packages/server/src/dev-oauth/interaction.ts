import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { OAUTH_PROVIDER_NAMES } from "@latchkey/protocol/oauth-providers";
import type { DevOidcProvider } from "./provider.js";
import { PAGE_HEADERS, signInPage } from "./pages.js";

/**
 * The sign-in page of the development provider (`/interaction/<uid>` under its mount path):
 * - GET shows the form: which email address to continue as;
 * - POST with `action=continue` signs in as that address and consents to everything the client asked for,
 *   in one step, so the browser goes straight back to the client;
 * - POST with `action=cancel` ends the request with `access_denied`, as a user refusing at a real provider.
 */

const MAX_FORM_BYTES = 16 * 1024;
const email = z.email();

export async function handleInteraction(provider: DevOidcProvider, mountPath: string, uid: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Throws SessionNotFound (400) when the interaction cookie is missing or the interaction has expired.
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    throw Object.assign(new Error("This sign-in page belongs to another sign-in; start again from the application."), { statusCode: 400, error: "invalid_request", expose: true });
  }
  const clientId = String(details.params.client_id);
  const form = {
    providerName: (Object.hasOwn(OAUTH_PROVIDER_NAMES, clientId) && OAUTH_PROVIDER_NAMES[clientId]) || clientId,
    action: `${mountPath}/interaction/${uid}`,
  };

  if (req.method === "GET" || req.method === "HEAD") {
    const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
    return send(res, 200, signInPage({ ...form, email: hint }));
  }
  if (req.method !== "POST") {
    res.writeHead(405, { allow: "GET, POST" }).end();
    return;
  }

  const fields = new URLSearchParams(await readForm(req));
  if (fields.get("action") === "cancel") {
    const returnTo = await provider.interactionResult(req, res, { error: "access_denied", error_description: "The user cancelled the sign-in." }, { mergeWithLastSubmission: false });
    return redirect(res, returnTo);
  }

  const typed = (fields.get("email") ?? "").trim();
  // Addresses are compared case-insensitively in practice; one account per address whatever was typed.
  const address = typed.toLowerCase();
  if (!email.safeParse(address).success) {
    const error = typed ? `“${typed}” is not an email address. Enter one like ada@example.com.` : "Enter an email address, like ada@example.com.";
    return send(res, 400, signInPage({ ...form, email: typed, error }));
  }

  const grant = new provider.Grant({ accountId: address, clientId });
  // The scopes left after oidc-provider's checks (offline_access only with prompt=consent, and so on).
  if (typeof details.params.scope === "string") grant.addOIDCScope(details.params.scope);
  const grantId = await grant.save();
  // A browser-session cookie at most; no sign-in resumes it anyway (cookies.long in provider.ts).
  const returnTo = await provider.interactionResult(req, res, { login: { accountId: address, remember: false }, consent: { grantId } }, { mergeWithLastSubmission: false });
  return redirect(res, returnTo);
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, PAGE_HEADERS).end(html);
}

function redirect(res: ServerResponse, location: string): void {
  // 303: the browser follows a POST's answer with a GET.
  res.writeHead(303, { location, "cache-control": "no-store", "content-length": "0" }).end();
}

async function readForm(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw Object.assign(new Error("The form is too large."), { statusCode: 413, error: "invalid_request", expose: true });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
