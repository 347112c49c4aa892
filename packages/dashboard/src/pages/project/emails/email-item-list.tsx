import { useId, useState, type FormEvent, type ReactNode } from "react";
import { z } from "zod";
import { MAX_DISPLAY_NAME_LENGTH, emailThemeCreateBody } from "@latchkey/protocol/schemas";

export interface EmailListItem {
  id: string;
  displayName: string;
  /** A short word after the name ("Built in", "Sent"). */
  note?: string;
}

/** A name as the server takes it (the protocol's), with each problem in words. */
export const emailNameForm = z
  .string()
  .trim()
  .min(1, "Give it a name.")
  .max(MAX_DISPLAY_NAME_LENGTH, `A name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`)
  .pipe(emailThemeCreateBody.shape.display_name);

/**
 * The themes, templates or drafts of the project as a list to pick one from (the picked one is marked as
 * current), with a form below to create another by name; a created one is picked.
 */
export function EmailItemList({
  kind,
  items,
  selectedId,
  onSelect,
  onCreate,
}: {
  /** "theme", "template" or "draft". */
  kind: string;
  items: EmailListItem[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** Creates one with this name and answers its id; the promise's error is shown. */
  onCreate: (displayName: string) => Promise<string>;
}) {
  const id = useId();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  async function create(event: FormEvent) {
    event.preventDefault();
    const parsed = emailNameForm.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setError(null);
    setCreating(true);
    try {
      onSelect(await onCreate(parsed.data));
      setName("");
    } catch (failure) {
      setError(`Could not create the ${kind}: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setCreating(false);
    }
  }

  return (
    <div className="emails-list-area">
      {items.length === 0 ? (
        <p>No {kind}s yet.</p>
      ) : (
        <ul className="emails-list" aria-label={`${capitalize(kind)}s`}>
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" className="dashboard-secondary" aria-current={item.id === selectedId ? "true" : undefined} onClick={() => onSelect(item.id)}>
                {item.displayName}
                {item.note ? <span className="emails-list-note"> · {item.note}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="emails-create" onSubmit={(event) => void create(event)} noValidate>
        <div className="dashboard-field">
          <label htmlFor={`${id}-name`}>New {kind}'s name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" disabled={creating}>
          {creating ? "Creating…" : `Create ${kind}`}
        </button>
        {error ? (
          <p id={`${id}-error`} role="alert" className="dashboard-error">
            {error}
          </p>
        ) : null}
      </form>
    </div>
  );
}

export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The picked item: the one chosen if it still exists, else the first (or none in an empty list). */
export function pickedItem<T extends { id: string }>(items: T[], chosenId: string | undefined): T | undefined {
  return items.find((item) => item.id === chosenId) ?? items[0];
}

/** A heading with the section's description, shared by the code sections. */
export function SectionIntro({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h2>{title}</h2>
      <p className="dashboard-muted">{children}</p>
    </>
  );
}
