import { useApp } from "@latchkey/react";
import { useId } from "react";
import { AppSettingsCard } from "./get-started/app-settings-card.js";
import { CodeBlock } from "./get-started/code-block.js";
import { SetupChecklist } from "./get-started/setup-checklist.js";
import { nextSnippet, reactSnippet, scriptTagSnippet, type AppSettings } from "./get-started/snippets.js";
import "./project-config/project-config.css";
import "./get-started/get-started.css";

/**
 * Where a new project opens (issue 31): the settings an app needs (`.env`), sign-in added three ways (script
 * tag, React, Next.js) with the project's real id and key, and a checklist that ticks itself.
 */
export function GetStartedPage() {
  const dashboard = useApp();
  const baseUrl = dashboard.baseUrl ?? window.location.origin;
  return (
    <>
      <AppSettingsCard baseUrl={baseUrl}>{(settings) => <Snippets settings={settings} />}</AppSettingsCard>
      <SetupChecklist />
    </>
  );
}

function Snippets({ settings }: { settings: AppSettings }) {
  const id = useId();
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add sign-in to your app</h2>
      <p>Pick the one that fits your app. Each is complete: paste it and sign up.</p>
      <h3>Script tag (any HTML page)</h3>
      <p className="dashboard-muted">
        The sign-up, password-reset and mailed-link pages are the ones this server hosts for the project. The page's origin must be a trusted domain
        (or localhost).
      </p>
      <CodeBlock code={scriptTagSnippet(settings)} label="script tag snippet" />
      <h3>React</h3>
      <p className="dashboard-muted">
        <code>/handler/*</code> in your app shows the widgets' own pages (sign-up, email verification, password reset, OAuth callback).
      </p>
      <CodeBlock code={reactSnippet(settings)} label="React snippet" />
      <h3>Next.js (App Router)</h3>
      <p className="dashboard-muted">
        <code>@latchkey/react</code> in the root layout and a client component, and the <code>/handler/[...path]</code> route for the widgets' pages. On
        the server side, <code>auth()</code> of <code>@latchkey/next</code> reads the user in Server Components, Route Handlers and Server Actions.
      </p>
      <CodeBlock code={nextSnippet()} label="Next.js snippet" />
    </section>
  );
}
