import type { ClientApp, CurrentUser } from "@latchkey/core";
import { createElement, Fragment, useEffect, useState, type ReactNode } from "react";
import { useApp, useUser } from "./hooks.js";

/**
 * The permission ids a user holds, per scope (`""` for the project, else the team id), loaded once per user
 * object: `$user` hands out a new object after every reload (sign-in, an edit, a team change), so a newer
 * user never reads older permissions, and the components of one page share one request per scope.
 */
const loadedPermissions = new WeakMap<CurrentUser, Map<string, Promise<ReadonlySet<string>>>>();

function permissionsOf(app: ClientApp, user: CurrentUser, teamId: string | undefined): Promise<ReadonlySet<string>> {
  const byScope = loadedPermissions.get(user) ?? new Map<string, Promise<ReadonlySet<string>>>();
  loadedPermissions.set(user, byScope);
  const scope = teamId ?? "";
  let ids = byScope.get(scope);
  if (!ids) {
    ids = (teamId === undefined ? app.listMyProjectPermissions() : app.listMyTeamPermissions(teamId)).then((list) => new Set(list));
    byScope.set(scope, ids);
    // A failed load is not remembered: the next render of a component asks again.
    ids.catch(() => byScope.delete(scope));
  }
  return ids;
}

interface PermissionAnswer {
  user: CurrentUser;
  scope: string | undefined;
  permission: string;
  granted?: boolean;
  error?: unknown;
}

/**
 * Whether the signed-in user holds `permission` (directly or contained in another): in the team `teamId` when
 * given, else in the project. `false` when signed out, `undefined` while loading; a failed load throws, so the
 * nearest error boundary shows it (as `useUser` does). Asks the server again whenever the user is reloaded.
 *
 * @example
 * ```ts
 * const canDelete = usePermission("$delete_team", { teamId: team.id });
 * return canDelete ? h("button", { onClick: remove }, "Delete team") : null;
 * ```
 */
export function usePermission(permission: string, options: { teamId?: string } = {}): boolean | undefined {
  return useHeldPermission(permission, options.teamId);
}

/** `usePermission`, or `true` when no permission is asked for (so `Protect` calls its hooks unconditionally). */
function useHeldPermission(permission: string | undefined, teamId: string | undefined): boolean | undefined {
  const app = useApp();
  const user = useUser();
  const [answer, setAnswer] = useState<PermissionAnswer>();
  useEffect(() => {
    if (!user || permission === undefined) return;
    let current = true;
    permissionsOf(app, user, teamId).then(
      (ids) => current && setAnswer({ user, scope: teamId, permission, granted: ids.has(permission) }),
      (error: unknown) => current && setAnswer({ user, scope: teamId, permission, error }),
    );
    return () => {
      current = false;
    };
  }, [app, user, teamId, permission]);
  if (permission === undefined) return true;
  if (user === null) return false;
  // An answer about another user, team or permission is stale: still loading.
  if (!user || answer?.user !== user || answer.scope !== teamId || answer.permission !== permission) return undefined;
  if (answer.error !== undefined) throw answer.error;
  return answer.granted;
}

export interface ProtectProps {
  /** A permission the user must hold (directly or contained in another): a project permission, or with `teamId` a team one. */
  permission?: string;
  /** Makes `permission` a team permission in this team. */
  teamId?: string;
  /** A check of your own on the signed-in user (e.g. a verified email, client metadata); must also pass. */
  condition?: (user: CurrentUser) => boolean;
  /** Shown instead of the children when the check fails or nobody is signed in; nothing by default. */
  fallback?: ReactNode;
  children?: ReactNode;
}

/**
 * Its children only when someone is signed in who passes every check given (`permission`, `condition`), else
 * the `fallback`; nothing while the user or the permissions load. It hides; it does not secure: your server
 * must check the permission again (e.g. with `@latchkey/core`'s server app) before acting.
 *
 * @example
 * ```ts
 * h(Protect, { permission: "read_invoices", fallback: h("p", null, "Ask an admin for access.") }, h(Invoices));
 * ```
 */
export function Protect(props: ProtectProps): ReactNode {
  const user = useUser();
  const granted = useHeldPermission(props.permission, props.teamId);
  if (user === undefined) return null;
  const passes = user !== null && granted !== false && (props.condition?.(user) ?? true);
  if (passes && granted === undefined) return null;
  return createElement(Fragment, null, passes ? props.children : props.fallback);
}
