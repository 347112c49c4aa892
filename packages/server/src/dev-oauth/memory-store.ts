/// <reference path="./oidc-provider.d.ts" />
import type { Adapter, AdapterPayload } from "oidc-provider";

/**
 * The development provider's storage (sessions, interactions, grants, codes, tokens): in the memory of the
 * process that serves it, gone on restart. It is a stand-in for sign-in during development and tests, so
 * no database and no sharing between processes: with several Latchkey processes behind one URL, the
 * built-in /dev/oauth works only if one process serves all of a flow's requests.
 *
 * oidc-provider's own in-memory adapter keeps at most 1000 entries and drops the least used, which a test
 * file running a few hundred flows against one provider would reach (an old refresh token silently gone);
 * here entries leave only when they expire.
 */
/** The models that belong to a grant and go when it is revoked (as in oidc-provider's own adapter). */
const GRANT_MEMBERS = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest", "PreAuthorizedCode"]);

export function createMemoryStore(): (modelName: string) => Adapter {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  /** Secondary lookups: session uid, device user code → entry key; grant id → keys of its codes and tokens. */
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();
  let writesSinceSweep = 0;

  const read = (key: string | undefined): AdapterPayload | undefined => {
    if (key === undefined) return undefined;
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      remove(key);
      return undefined;
    }
    return entry.payload;
  };

  const remove = (key: string) => {
    const payload = entries.get(key)?.payload;
    entries.delete(key);
    if (!payload) return;
    if (payload.uid !== undefined && byUid.get(payload.uid) === key) byUid.delete(payload.uid);
    if (payload.userCode !== undefined && byUserCode.get(payload.userCode) === key) byUserCode.delete(payload.userCode);
    if (payload.grantId !== undefined) byGrant.get(payload.grantId)?.delete(key);
  };

  // Expired entries are dropped as they are met, and all at once every few hundred writes, so a
  // long-running dev server does not keep every token it ever issued.
  const sweep = () => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) remove(key);
    for (const [grantId, keys] of byGrant) if (keys.size === 0) byGrant.delete(grantId);
  };

  return (modelName) => {
    const keyOf = (id: string) => `${modelName}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id);
        remove(key);
        entries.set(key, { payload, expiresAt: expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000 });
        if (modelName === "Session" && payload.uid !== undefined) byUid.set(payload.uid, key);
        if (payload.userCode !== undefined) byUserCode.set(payload.userCode, key);
        if (payload.grantId !== undefined && GRANT_MEMBERS.has(modelName)) {
          const keys = byGrant.get(payload.grantId) ?? new Set<string>();
          keys.add(key);
          byGrant.set(payload.grantId, keys);
        }
        if (++writesSinceSweep >= 500) {
          writesSinceSweep = 0;
          sweep();
        }
      },
      async find(id) {
        return read(keyOf(id));
      },
      async findByUid(uid) {
        return read(byUid.get(uid));
      },
      async findByUserCode(userCode) {
        return read(byUserCode.get(userCode));
      },
      async consume(id) {
        const payload = read(keyOf(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        remove(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of byGrant.get(grantId) ?? []) remove(key);
        byGrant.delete(grantId);
      },
    };
  };
}
