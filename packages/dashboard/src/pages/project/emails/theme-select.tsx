import type { EmailThemeSummary } from "@latchkey/core";

/** Chooses the theme a template or draft is wrapped in: the project's selected one, none, or a given one. */
export function ThemeSelect({ id, value, onChange, themes }: {
  id: string;
  /** As `themeChoiceToValue` writes it. */
  value: string;
  onChange: (value: string) => void;
  themes: EmailThemeSummary[];
}) {
  return (
    <div className="dashboard-field">
      <label htmlFor={id}>Theme</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">The project's theme</option>
        <option value="none">No theme</option>
        {themes.map((theme) => (
          <option key={theme.id} value={theme.id}>
            {theme.displayName}
          </option>
        ))}
      </select>
    </div>
  );
}
