import { useEffect, useState } from "react";

/** `value`, once it has stayed the same for `delayMillis` (e.g. a search box, so each keystroke is not a request). */
export function useDebounced<T>(value: T, delayMillis: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMillis);
    return () => clearTimeout(timer);
  }, [value, delayMillis]);
  return settled;
}
