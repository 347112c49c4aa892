import { parseArgs } from "node:util";
import { createClientApp, KnownError, memoryTokenStore, promptCliLogin } from "@latchkey/core";
import { credentialsPath, deleteCredentials, loadCredentials, saveCredentials } from "./credentials.js";
import { openBrowser } from "./open-browser.js";
import { startSpinner } from "./spinner.js";

const USAGE = `Usage:
  latchkey login --app <app url> [--api <latchkey url>] [--project <id>] [--key <publishable client key>] [--no-browser]
  latchkey whoami
  latchkey logout

login   opens <app url>/handler/cli-auth-confirm in the browser, waits until you confirm there, and keeps the
        session in ${credentialsPath()} (readable only by you).
Defaults: --api ${"$"}LATCHKEY_API_URL or http://localhost:8102, --project ${"$"}LATCHKEY_PROJECT_ID or internal,
--key ${"$"}LATCHKEY_PUBLISHABLE_CLIENT_KEY or the local development key.`;

const DEV_PUBLISHABLE_KEY = "this-publishable-client-key-is-for-local-development-only";

/** `latchkey <command>`; resolves with the exit code. */
export async function main(argv: string[], io = { out: process.stdout, err: process.stderr }): Promise<number> {
  const say = (text: string) => io.out.write(`${text}\n`);
  const fail = (text: string, code = 1) => (io.err.write(`${text}\n`), code);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { app: { type: "string" }, api: { type: "string" }, project: { type: "string" }, key: { type: "string" }, "no-browser": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;

  switch (positionals[0]) {
    case "login": {
      if (!values.app) return fail(`latchkey login needs --app <url of the app that signs you in>\n\n${USAGE}`, 2);
      const target = {
        baseUrl: values.api ?? process.env.LATCHKEY_API_URL ?? "http://localhost:8102",
        projectId: values.project ?? process.env.LATCHKEY_PROJECT_ID ?? "internal",
        publishableClientKey: values.key ?? process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY ?? DEV_PUBLISHABLE_KEY,
      };
      const app = createClientApp({ ...target, tokenStore: "memory" });
      // Ctrl-C stops waiting and leaves nothing behind.
      const cancel = new AbortController();
      const onSigint = () => cancel.abort(new Error("cancelled"));
      process.once("SIGINT", onSigint);
      let stopSpinner = () => {};
      try {
        const refreshToken = await promptCliLogin(app, {
          appUrl: values.app,
          signal: cancel.signal,
          promptLink: (url) => {
            say(`Open this page to sign in:\n  ${url}`);
            if (!values["no-browser"]) openBrowser(url);
            stopSpinner = startSpinner("Waiting for you to confirm in the browser…");
          },
        });
        stopSpinner();
        await saveCredentials({ ...target, refreshToken });
        const user = await currentUser({ ...target, refreshToken });
        say(`Signed in as ${describe(user)}.`);
        return 0;
      } catch (error) {
        stopSpinner();
        if (cancel.signal.aborted) return fail("Cancelled.", 130);
        return fail(error instanceof Error ? error.message : String(error));
      } finally {
        process.off("SIGINT", onSigint);
      }
    }
    case "whoami": {
      const credentials = await loadCredentials();
      if (!credentials) return fail("Not signed in. Run: latchkey login --app <url>");
      const user = await currentUser(credentials).catch((error: unknown) => {
        if (error instanceof KnownError) return null;
        throw error;
      });
      if (!user) return fail("The saved session has ended. Run: latchkey login --app <url>");
      say(describe(user));
      return 0;
    }
    case "logout": {
      await deleteCredentials();
      say("Signed out.");
      return 0;
    }
    default:
      if (values.help || positionals.length === 0) return (say(USAGE), 0);
      return fail(`Unknown command: ${positionals[0]}\n\n${USAGE}`, 2);
  }
}

async function currentUser(credentials: { baseUrl: string; projectId: string; publishableClientKey: string; refreshToken: string }) {
  const { refreshToken, ...target } = credentials;
  const app = createClientApp({ ...target, tokenStore: memoryTokenStore({ accessToken: null, refreshToken }) });
  return app.getUser();
}

function describe(user: { primaryEmail: string | null; displayName: string | null; id: string } | null): string {
  if (!user) return "nobody (the session has ended)";
  const name = user.displayName ? `${user.displayName} ` : "";
  return `${name}<${user.primaryEmail ?? "no email"}> (user ${user.id})`;
}
