/** The search box above a table: narrower than the table, and says which table it filters. */
export function SearchField({
  id,
  label,
  value,
  onChange,
  placeholder,
  controls,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The id of what it searches: an element that is always there (axe refuses an id that is missing). */
  controls: string;
}) {
  return (
    <div className="dashboard-field dashboard-search">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={value} onChange={(event) => onChange(event.target.value)} placeholder={placeholder} aria-controls={controls} />
    </div>
  );
}
