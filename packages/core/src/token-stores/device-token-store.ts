/**
 * Device tokens: the server's proof, handed out with each successful password sign-in or sign-up, that this
 * browser has signed in to an account before. Sent back with the next password sign-in to that account, it
 * lets the owner in while an attacker's wrong passwords hold the account blocked (the server counts this
 * browser's own failures instead). The API is called without cookies (`credentials: "omit"`), so the token
 * travels in the `x-latchkey-device-token` header and is kept here: in localStorage where there is one, so it
 * outlives sign-out and page loads, else in memory.
 */
export interface DeviceTokenStore {
  /** The token for the account (an email, as typed), or null. */
  get(account: string): string | null;
  /** Keeps the token the server handed out for the account. */
  set(account: string, token: string): void;
}

export const DEVICE_TOKEN_HEADER = "x-latchkey-device-token";

/** Accounts remembered per project and browser: the most recently signed in to. */
const MAX_ACCOUNTS = 10;

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * localStorage when the platform has a usable one, else memory; memory too once the storage refuses a write (full,
 * or a private mode). Small on purpose: it is in the sign-in element's bundle.
 */
export function deviceTokenStore(projectId: string, storage: StorageLike | null = browserStorage()): DeviceTokenStore {
  const key = `latchkey-device-tokens:${projectId}`;
  let memory: Record<string, string> = {};
  const read = (): Record<string, string> => {
    try {
      return (storage && JSON.parse(storage.getItem(key) ?? "{}")) || memory;
    } catch {
      return memory;
    }
  };
  // Keyed in lowercase, as the server signs the address (as typed, lowercased).
  return {
    get: (account) => read()[account.toLowerCase()] ?? null,
    set(account, token) {
      const name = account.toLowerCase();
      const { [name]: _replaced, ...others } = read();
      // Insertion order is recency: the account signed in to last goes to the end, the oldest beyond the cap go.
      memory = Object.fromEntries([...Object.entries(others), [name, token]].slice(-MAX_ACCOUNTS));
      try {
        storage?.setItem(key, JSON.stringify(memory));
      } catch {
        storage = null;
      }
    },
  };
}

function browserStorage(): StorageLike | null {
  try {
    return (globalThis as { localStorage?: StorageLike }).localStorage ?? null;
  } catch {
    return null;
  }
}
