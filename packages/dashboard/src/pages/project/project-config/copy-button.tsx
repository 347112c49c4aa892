import { useState } from "react";

/**
 * Copies `value` to the clipboard and says so. `label` names what is copied for screen readers and tests
 * (e.g. "Copy the GitHub callback URL").
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className="dashboard-secondary"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span role="status" className="dashboard-muted">
        {state === "failed" ? "Could not copy: select the text and copy it yourself." : ""}
      </span>
    </>
  );
}

/** A value in a code box with its copy button beside it. */
export function Copyable({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className="config-copyable">
      <code className="dashboard-code" data-testid={testId}>
        {value}
      </code>
      <CopyButton value={value} label={label} />
    </div>
  );
}
