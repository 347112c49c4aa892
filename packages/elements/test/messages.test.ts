import { expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { checkLocales } from "../scripts/messages.mjs";

it("has every message of the elements translated in every shipped locale, placeholders intact", () => {
  expect(checkLocales()).toEqual([]);
});
