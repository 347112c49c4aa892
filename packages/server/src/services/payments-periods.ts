import type { DayInterval } from "../config/project-config.js";

/**
 * Calendar arithmetic for repeating grants and subscription periods, in UTC. Months and years move the
 * calendar (a grant anchored on Jan 31 repeats on Feb 28/29, then Mar 31: the k-th grant is always computed
 * from the anchor, so a short month does not shift the following ones).
 */

const DAY_MS = 86_400_000;

/** `anchor` moved forward by `times` × `interval`. */
export function addInterval(anchor: Date, interval: DayInterval, times = 1): Date {
  const [n, unit] = interval;
  const steps = n * times;
  if (unit === "day") return new Date(anchor.getTime() + steps * DAY_MS);
  if (unit === "week") return new Date(anchor.getTime() + steps * 7 * DAY_MS);
  const months = unit === "month" ? steps : steps * 12;
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const moved = new Date(anchor.getTime());
  moved.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return moved;
}

/**
 * How many grants of a repeat anchored at `anchor` have happened by `at` (the grant at the anchor itself
 * included): 0 before the anchor. A zero-length interval never repeats (one grant).
 */
export function grantsBy(anchor: Date, interval: DayInterval, at: Date): number {
  if (at.getTime() < anchor.getTime()) return 0;
  const [n, unit] = interval;
  if (n <= 0) return 1;
  const elapsed = at.getTime() - anchor.getTime();
  let k: number;
  if (unit === "day" || unit === "week") {
    k = Math.floor(elapsed / ((unit === "day" ? 1 : 7) * n * DAY_MS));
  } else {
    // An estimate from calendar months, corrected by at most a step either way.
    const months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
    k = Math.max(0, Math.floor(months / (unit === "month" ? n : n * 12)));
    while (k > 0 && addInterval(anchor, interval, k).getTime() > at.getTime()) k--;
    while (addInterval(anchor, interval, k + 1).getTime() <= at.getTime()) k++;
  }
  return k + 1;
}
