import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { fieldErrors } from "./form-errors.js";

/**
 * A form's typed input and its problems. `submitWith(send)` is the form's submit handler: it runs the form's
 * zod schema over what was typed, shows each field's first problem (or clears them), and sends the checked
 * values only when there is none.
 */
export function useCheckedInput<S extends z.ZodType<unknown, Record<string, unknown>>>(schema: S, initial: z.input<S>) {
  const [input, setInput] = useState<z.input<S>>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof z.input<S>, string>>>({});
  const submitWith = (send: (values: z.output<S>) => void) => (event: FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(input);
    setErrors(parsed.success ? {} : fieldErrors<keyof z.input<S>>(parsed.error));
    if (parsed.success) send(parsed.data);
  };
  return { input, setInput, errors, submitWith };
}
