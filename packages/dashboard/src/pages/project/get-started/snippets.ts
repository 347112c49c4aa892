/**
 * What the Get started page hands a developer, filled in with the project's real values: the `.env` lines and
 * one snippet per way in (script tag, React, Next.js). Each is written for the packages as their READMEs
 * describe them (packages/elements/README.md, packages/react/README.md) and the apps in demo/ use them.
 */
export interface AppSettings {
  baseUrl: string;
  projectId: string;
  /** Null while the project has no publishable client key (the page offers to make one). */
  publishableClientKey: string | null;
  /** Only right after it was made: the server keeps no copy to show again. */
  secretServerKey?: string | null;
}

const KEY_PLACEHOLDER = "<your publishable client key>";

/** The `.env` block: what a Next.js app (or any server) reads, the secret key only while it can be shown. */
export function envBlock({ baseUrl, projectId, publishableClientKey, secretServerKey }: AppSettings): string {
  const lines = [
    `LATCHKEY_BASE_URL=${baseUrl}`,
    `LATCHKEY_PROJECT_ID=${projectId}`,
    `LATCHKEY_PUBLISHABLE_CLIENT_KEY=${publishableClientKey ?? KEY_PLACEHOLDER}`,
  ];
  if (secretServerKey) lines.push("# For your server only; never ship it to a browser.", `LATCHKEY_SECRET_SERVER_KEY=${secretServerKey}`);
  return `${lines.join("\n")}\n`;
}

/**
 * Any HTML page: one script, one `init`. The page has no `/handler/*` routes of its own, so it uses the ones
 * the server hosts for the project (`hostedPages`: sign-up, password reset and mailed links lead there).
 */
export function scriptTagSnippet({ baseUrl, projectId, publishableClientKey }: AppSettings): string {
  return `<script src="${baseUrl}/static/v1/latchkey.iife.js"></script>
<script>
  Latchkey.init({
    projectId: "${projectId}",
    publishableClientKey: "${publishableClientKey ?? KEY_PLACEHOLDER}",
    baseUrl: "${baseUrl}",
    hostedPages: true,
  });
</script>
<auth-user-button show-name></auth-user-button>
<auth-sign-in></auth-sign-in>
`;
}

/** A React app without a router (Vite): every path under /handler/ is one of the widgets' pages. */
export function reactSnippet({ baseUrl, projectId, publishableClientKey }: AppSettings): string {
  return `// npm install @latchkey/react
import { AuthHandler, AuthProvider, AuthSignIn, AuthUserButton, useUser } from "@latchkey/react";

function Home() {
  const user = useUser(); // undefined while loading, null when signed out
  if (user === undefined) return <p>Loading…</p>;
  return user ? <p>Hello {user.primaryEmail}</p> : <AuthSignIn />;
}

export function App() {
  // /handler/* (sign-up, email verification, password reset, OAuth callback, …) shows the widgets' pages;
  // the dev server (and your host) must answer those paths with index.html.
  const onHandlerPage = location.pathname.startsWith("/handler/");
  return (
    <AuthProvider projectId="${projectId}" publishableClientKey="${publishableClientKey ?? KEY_PLACEHOLDER}" baseUrl="${baseUrl}">
      <AuthUserButton showName />
      {onHandlerPage ? <AuthHandler /> : <Home />}
    </AuthProvider>
  );
}
`;
}

/**
 * The Next.js App Router: the provider in the root layout (a Server Component, reading the `.env` block), the
 * `/handler/[...path]` route for the widgets' pages, and the user read in a client component.
 */
export function nextSnippet(): string {
  return `// npm install @latchkey/react — and put the .env block above in .env.local

// app/layout.tsx
import { AuthProvider } from "@latchkey/react";
import type { ReactNode } from "react";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <AuthProvider
          projectId={process.env.LATCHKEY_PROJECT_ID!}
          publishableClientKey={process.env.LATCHKEY_PUBLISHABLE_CLIENT_KEY!}
          baseUrl={process.env.LATCHKEY_BASE_URL!}
        >
          {children}
        </AuthProvider>
      </body>
    </html>
  );
}

// app/handler/[...path]/page.tsx: sign-up, email verification, password reset, OAuth callback, …
import { AuthHandler } from "@latchkey/react";

export default function Handler() {
  return <AuthHandler />;
}

// app/account.tsx (render <Account /> from any page)
"use client";
import { AuthSignIn, AuthUserButton, useUser } from "@latchkey/react";

export function Account() {
  const user = useUser(); // undefined while loading, null when signed out
  if (user === undefined) return <p>Loading…</p>;
  return user ? <AuthUserButton showName /> : <AuthSignIn />;
}
`;
}
