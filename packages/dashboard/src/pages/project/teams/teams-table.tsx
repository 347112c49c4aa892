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
import { DataTable } from "../../../components/data-table.js";
import { SearchField } from "../../../components/search-field.js";

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
      <SearchField
        id={`${id}-search`}
        label="Search teams"
        value={table.state.globalFilter ?? ""}
        onChange={(value) => table.setGlobalFilter(value)}
        placeholder="Name or id"
        controls={`${id}-table`}
      />
      <p className="dashboard-muted" role="status">
        {table.state.globalFilter
          ? `${rows.length} of ${teams.length} ${rows.length === 1 ? "team matches" : "teams match"} the search.`
          : `${teams.length} ${teams.length === 1 ? "team" : "teams"}.`}
      </p>
      <DataTable table={table} id={`${id}-table`} scrollClassName="teams-scroll" caption="The project's teams" />
      {rows.length === 0 ? <p>No team matches this search.</p> : null}
    </>
  );
}
