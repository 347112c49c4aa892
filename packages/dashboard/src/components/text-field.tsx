/**
 * A labelled text input with its problem (from the form's zod check) or, when there is none, its hint below;
 * the input points at whichever shows, so a screen reader reads it with the field.
 */
export function TextField({
  id,
  name,
  label,
  value,
  onChange,
  error,
  hint,
  type,
  autoComplete,
  inputMode,
  placeholder,
}: {
  /** The input's id; the problem and the hint get ids derived from it. */
  id: string;
  name?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: "url" | "email" | "text" | "decimal" | "numeric";
  placeholder?: string;
}) {
  return (
    <div className="dashboard-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
      />
      {error ? (
        <span id={`${id}-error`} className="dashboard-error">
          {error}
        </span>
      ) : hint ? (
        <span id={`${id}-hint`} className="dashboard-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
