import { adminProjectConfigUpdate } from "@latchkey/protocol/schemas";
import { useId, useState, type ReactNode } from "react";
import { errorMessage } from "../../../error-message.js";
import { useLegacyConfigUpdate, type LegacyConfig } from "./project-config-queries.js";
import { SaveStatus } from "./save-status.js";

/** The legacy config's on/off settings. */
export type ConfigSwitch = {
  [K in keyof LegacyConfig]: LegacyConfig[K] extends boolean ? K : never;
}[keyof LegacyConfig];

export interface SwitchField {
  name: ConfigSwitch;
  label: string;
  /** One sentence on what turning it on means. */
  hint?: string;
}

/**
 * A card of checkboxes for on/off settings of the project's config, saved together with one button. The
 * values are checked with the protocol's update schema before they are sent; the server's refusal is shown.
 */
export function ConfigSwitchesForm({
  title,
  fields,
  config,
  children,
}: {
  title: string;
  fields: SwitchField[];
  config: LegacyConfig;
  children?: ReactNode;
}) {
  const id = useId();
  // What the person changed, over the saved values: a change saved elsewhere (another form, the override
  // editor) shows here too, while unsaved edits stay.
  const [edits, setEdits] = useState<Partial<Record<ConfigSwitch, boolean>>>({});
  const values = Object.fromEntries(fields.map((field) => [field.name, edits[field.name] ?? config[field.name]])) as Record<ConfigSwitch, boolean>;
  const update = useLegacyConfigUpdate();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    setProblem(null);
    const parsed = adminProjectConfigUpdate.safeParse(values);
    if (!parsed.success) return setProblem(parsed.error.issues.map((issue) => issue.message).join(" "));
    update.mutate(parsed.data, { onSuccess: () => setEdits({}) });
  };

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <form
        className="dashboard-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {fields.map((field) => (
          <div key={field.name} className="config-switch">
            <input
              id={`${id}-${field.name}`}
              type="checkbox"
              checked={values[field.name]}
              aria-describedby={field.hint ? `${id}-${field.name}-hint` : undefined}
              onChange={(event) => {
                update.reset();
                setEdits({ ...edits, [field.name]: event.target.checked });
              }}
            />
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            {field.hint ? (
              <p id={`${id}-${field.name}-hint`} className="dashboard-muted">
                {field.hint}
              </p>
            ) : null}
          </div>
        ))}
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save"}
        </button>
        <SaveStatus saved={update.isSuccess} error={problem ?? (update.isError ? errorMessage(update.error) : null)} />
      </form>
    </section>
  );
}
