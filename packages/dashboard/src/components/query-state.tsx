import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

/**
 * The three states every page shows before its content: loading (a status line), failed (an alert with the
 * server's message and a retry), and empty (when `isEmpty` says so). `children` renders the loaded data.
 */
export function QueryState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** Names the data in the messages: "Loading {what}…", "Could not load {what}". */
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p role="status">Loading {what}…</p>;
  if (query.isError)
    return (
      <p role="alert" className="dashboard-error">
        Could not load {what}: {query.error.message}{" "}
        <button type="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </p>
    );
  if (isEmpty?.(query.data)) return <>{empty ?? <p>Nothing here yet.</p>}</>;
  return <>{children(query.data)}</>;
}
