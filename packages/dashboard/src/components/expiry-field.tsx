import { z } from "zod";

const DAY_MILLIS = 24 * 60 * 60 * 1000;

/** How long a new key lives: a number of days, or never expiring. Each kind of key offers these or a part of them. */
export const EXPIRY_CHOICES = [
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];
type Choices = readonly (typeof EXPIRY_CHOICES)[number][];

/** The form's check that the value is one of `choices`. */
export const expiryChoice = (choices: Choices = EXPIRY_CHOICES) => z.enum(choices.map((choice) => choice.value) as [ExpiryChoice, ...ExpiryChoice[]]);

/** When a key made now with this choice expires: `neverDays` from now for "never" (`null` when it may live forever). */
export function expiryDate(choice: ExpiryChoice, neverDays: number, now?: number): Date;
export function expiryDate(choice: ExpiryChoice, neverDays: null, now?: number): Date | null;
export function expiryDate(choice: ExpiryChoice, neverDays: number | null, now = Date.now()): Date | null {
  const days = choice === "never" ? neverDays : Number(choice);
  return days === null ? null : new Date(now + days * DAY_MILLIS);
}

/** The labelled select of a key's lifetime. */
export function ExpiryField({
  id,
  label,
  value,
  onChange,
  choices = EXPIRY_CHOICES,
}: {
  id: string;
  label: string;
  value: ExpiryChoice;
  onChange: (value: ExpiryChoice) => void;
  choices?: Choices;
}) {
  return (
    <div className="dashboard-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as ExpiryChoice)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
