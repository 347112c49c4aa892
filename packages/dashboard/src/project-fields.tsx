import { TextField } from "./components/text-field.js";
import type { ProjectCreateInput } from "./project-form.js";

/** A project's name and description, as the create-project form and the project's details form both ask for them. */
export function ProjectFields({
  id,
  input,
  errors,
  onChange,
}: {
  id: string;
  input: ProjectCreateInput;
  errors: Partial<Record<keyof ProjectCreateInput, string>>;
  onChange: (input: ProjectCreateInput) => void;
}) {
  const field = (name: keyof ProjectCreateInput, label: string, hint?: string) => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      hint={hint}
      error={errors[name]}
      value={input[name]}
      onChange={(value) => onChange({ ...input, [name]: value })}
    />
  );
  return (
    <>
      {field("displayName", "Project name")}
      {field("description", "Description", "Optional: what the project is for.")}
    </>
  );
}
