/**
 * One metadata object (of a user or a team) as JSON in a text box, with what it is for below and, when it
 * does not parse or the server could not store it (metadata-json.ts), the problem as an alert.
 */
export function MetadataField({
  id,
  label,
  hint,
  text,
  problem,
  onChange,
}: {
  /** The text box's id; the hint and the problem get ids derived from it. */
  id: string;
  label: string;
  hint: string;
  text: string;
  problem?: string | null;
  onChange: (text: string) => void;
}) {
  return (
    <div className="dashboard-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="dashboard-metadata"
        value={text}
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
      />
      <span id={`${id}-hint`} className="dashboard-muted">
        {hint}
      </span>
      {problem ? (
        <span id={`${id}-problem`} role="alert" className="dashboard-error">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
