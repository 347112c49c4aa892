import { errorMessage } from "../error-message.js";

/** When a request failed (`error` set), an alert in the server's own words: "Could not {action}: …". */
export function FailureAlert({ action, error }: { action: string; error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="dashboard-error">
      Could not {action}: {errorMessage(error)}
    </p>
  );
}
