import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

/**
 * The three states every page shows before its content: loading (a status line), failed (an alert with the
 * server's message and a retry), and empty (when `isEmpty` says so). `children` renders the loaded data; when
 * a later refresh fails, the alert shows above it and the data stays.
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
  const failure = query.isError ? (
    <p role="alert" className="dashboard-error">
      Could not {query.data === undefined ? "load" : "refresh"} {what}: {query.error.message}{" "}
      <button type="button" onClick={() => void query.refetch()}>
        Try again
      </button>
    </p>
  ) : null;
  // A failed background refresh keeps what was loaded on screen: an open editor or dialog is not thrown away.
  if (query.data === undefined) return failure;
  const content = isEmpty?.(query.data) ? (empty ?? <p>Nothing here yet.</p>) : children(query.data);
  return (
    <>
      {failure}
      {content}
    </>
  );
}
