import { CopyButton } from "../project-config/copy-button.js";

/**
 * A snippet to copy: preformatted (it scrolls sideways inside its card on a phone), focusable so keyboard users
 * can scroll it, named by `label` for screen readers and tests, with a copy button.
 */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="get-started-code">
      <pre className="dashboard-code" tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={`Copy the ${label}`} />
    </div>
  );
}
