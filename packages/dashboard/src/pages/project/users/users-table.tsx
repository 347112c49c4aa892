import type { ServerUser } from "@latchkey/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useId, useMemo, useState } from "react";
import { DataTable } from "../../../components/data-table.js";
import { SearchField } from "../../../components/search-field.js";
import { errorMessage } from "../../../error-message.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { USERS_PAGE_SIZE } from "./page-size.js";
import { useDebounced } from "./use-debounced.js";
import { DateTime, UserAvatar, VerifiedLabel, signInMethods, userName } from "./user-display.js";
import { userListKey } from "./user-queries.js";

/** How long the search box waits after the last keystroke before asking the server. */
const SEARCH_DELAY_MILLIS = 300;

const features = tableFeatures({});
const column = createColumnHelper<typeof features, ServerUser>();
const NO_USERS: ServerUser[] = [];

/**
 * The project's users as a TanStack table (v9), paged and searched by the server: `GET /users` pages by
 * cursor (each answer names the next page's), so the way back is a stack of the cursors of the pages seen.
 * Newest sign-ups first. Each row links to the user's page.
 */
export function UsersTable({ projectId }: { projectId: string }) {
  const admin = useProjectAdmin(projectId);
  const id = useId();
  const [typed, setTyped] = useState("");
  const query = useDebounced(typed.trim(), SEARCH_DELAY_MILLIS);
  // The cursors of the pages before the current one, and the current one's (undefined: the first page).
  const [pages, setPages] = useState<{ query: string; cursors: (string | undefined)[] }>({ query: "", cursors: [undefined] });
  // A new search starts again at its first page.
  const cursors = pages.query === query ? pages.cursors : [undefined];
  const cursor = cursors[cursors.length - 1];

  const pageNumber = cursors.length;
  const users = useQuery({
    queryKey: userListKey(projectId, { query, cursor }),
    // Each answer carries its search and page: while the next one loads the last one stays on screen
    // (keepPreviousData), and the table's caption must name the page whose rows it shows.
    queryFn: async () => ({ ...(await admin.listUsers({ cursor, limit: USERS_PAGE_SIZE, orderBy: "signedUpAt", desc: true, query: query || undefined })), query, pageNumber }),
    placeholderData: keepPreviousData,
  });

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor((user) => userName(user), {
          id: "user",
          header: "User",
          cell: (info) => (
            <span className="users-person">
              <UserAvatar user={info.row.original} />
              <Link to="/projects/$projectId/users/$userId" params={{ projectId, userId: info.row.original.id }}>
                {info.getValue()}
              </Link>
            </span>
          ),
        }),
        column.accessor("primaryEmail", {
          header: "Primary email",
          cell: (info) => {
            const email = info.getValue();
            if (!email) return <span className="dashboard-muted">None</span>;
            return (
              <>
                {email} <VerifiedLabel verified={info.row.original.primaryEmailVerified} />
              </>
            );
          },
        }),
        column.accessor("signedUpAt", { header: "Signed up", cell: (info) => <DateTime value={info.getValue()} /> }),
        column.accessor("lastActiveAt", { header: "Last active", cell: (info) => <DateTime value={info.getValue()} /> }),
        column.accessor((user) => signInMethods(user).join(", "), {
          id: "methods",
          header: "Sign-in methods",
          cell: (info) => info.getValue() || <span className="dashboard-muted">None</span>,
        }),
      ]),
    [projectId],
  );
  const table = useTable({ features, columns, data: users.data?.items ?? NO_USERS, getRowId: (user) => user.id });
  const rows = table.getRowModel().rows;
  const shown = users.data ?? { query, pageNumber };
  const nextCursor = users.data?.nextCursor ?? null;

  return (
    <>
      <SearchField
        id={`${id}-search`}
        label="Search users"
        value={typed}
        onChange={setTyped}
        placeholder="Name, email or id"
        controls={`${id}-results`}
      />
      {/* What the search box controls: there in every state, where the table is there only when users are. */}
      <div id={`${id}-results`}>
        {users.isPending ? (
          <p role="status">Loading users…</p>
        ) : users.isError ? (
          <p role="alert" className="dashboard-error">
            Could not load the users: {errorMessage(users.error)}{" "}
            <button type="button" onClick={() => void users.refetch()}>
              Try again
            </button>
          </p>
        ) : rows.length === 0 ? (
          <p role="status">{query ? `No user matches “${query}”.` : "No users yet. Create the first one below."}</p>
        ) : (
          <>
            <DataTable
              table={table}
              id={`${id}-table`}
              className="users-table-wide"
              busy={users.isFetching}
              caption={shown.query ? `Users matching “${shown.query}”, page ${shown.pageNumber}` : `The project's users, page ${shown.pageNumber}`}
            />
            <nav className="users-pager" aria-label="Pages of users">
              <button
                type="button"
                className="dashboard-secondary"
                disabled={pageNumber === 1}
                onClick={() => setPages({ query, cursors: cursors.slice(0, -1) })}
              >
                Previous page
              </button>
              <span role="status">
                Page {pageNumber}
                {users.isFetching ? " (loading…)" : ""}
              </span>
              <button
                type="button"
                className="dashboard-secondary"
                disabled={nextCursor === null || users.isPlaceholderData}
                onClick={() => setPages({ query, cursors: [...cursors, nextCursor ?? undefined] })}
              >
                Next page
              </button>
            </nav>
          </>
        )}
      </div>
    </>
  );
}
