/**
 * The line under a settings form after a save: "Saved." as a status, or the server's refusal as an alert.
 * Nothing while the form has not been sent (or was changed since).
 */
export function SaveStatus({ saved, error }: { saved: boolean; error: string | null }) {
  if (error)
    return (
      <p role="alert" className="dashboard-error">
        {error}
      </p>
    );
  return (
    <p role="status" className="dashboard-muted">
      {saved ? "Saved." : ""}
    </p>
  );
}
