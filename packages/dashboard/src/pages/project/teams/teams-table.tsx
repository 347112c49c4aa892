import type { ServerTeam } from "@latchkey/core";
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  filterFn_includesString,
  globalFilteringFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { Link } from "@tanstack/react-router";
import { useId } from "react";

/**
 * The project's teams as a TanStack table (v9) with a search box. `GET /teams` has neither paging nor search,
 * so the whole list is loaded and the table filters it by name and id in the browser.
 */
const features = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  filterFns: { includesString: filterFn_includesString },
});
const column = createColumnHelper<typeof features, ServerTeam>();

export function TeamsTable({ projectId, teams }: { projectId: string; teams: ServerTeam[] }) {
  const id = useId();
  const columns = column.columns([
    column.accessor("displayName", {
      header: "Name",
      cell: (info) => (
        <Link to="/projects/$projectId/teams/$teamId" params={{ projectId, teamId: info.row.original.id }}>
          {info.getValue()}
        </Link>
      ),
    }),
    column.accessor("id", { header: "Team id", cell: (info) => <code className="dashboard-code">{info.getValue()}</code> }),
    column.accessor((team) => team.createdAt.toLocaleDateString(), { id: "created", header: "Created", enableGlobalFilter: false }),
  ]);
  const table = useTable({ features, columns, data: teams, getRowId: (team) => team.id, globalFilterFn: "includesString" }, (state) => ({
    globalFilter: state.globalFilter as string | undefined,
  }));
  const rows = table.getRowModel().rows;

  return (
    <>
      <div className="dashboard-field teams-search">
        <label htmlFor={`${id}-search`}>Search teams</label>
        <input
          id={`${id}-search`}
          type="search"
          value={table.state.globalFilter ?? ""}
          onChange={(event) => table.setGlobalFilter(event.target.value)}
          placeholder="Name or id"
          aria-controls={`${id}-table`}
        />
      </div>
      <p className="dashboard-muted" role="status">
        {table.state.globalFilter
          ? `${rows.length} of ${teams.length} ${rows.length === 1 ? "team matches" : "teams match"} the search.`
          : `${teams.length} ${teams.length === 1 ? "team" : "teams"}.`}
      </p>
      <div className="dashboard-table-scroll teams-scroll">
        <table className="dashboard-table" id={`${id}-table`}>
          <caption className="teams-visually-hidden">The project's teams</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col">
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p>No team matches this search.</p> : null}
    </>
  );
}
