import type { ReactTable, RowData, TableFeatures } from "@tanstack/react-table";

/**
 * A TanStack table (v9) as a `.dashboard-table` that scrolls inside its card on a phone: a header row per
 * header group, a row per row of the row model (filtered, if the table filters), and a caption for screen
 * readers. The page makes the table (columns, data, paging or filtering); this only draws it.
 */
export function DataTable<TFeatures extends TableFeatures, TData extends RowData>({
  table,
  id,
  caption,
  className,
  scrollClassName,
  busy,
}: {
  table: ReactTable<TFeatures, TData, unknown>;
  /** The table element's id, for the search box's `aria-controls`. */
  id: string;
  caption: string;
  /** Added to `dashboard-table` (e.g. a minimum width). */
  className?: string;
  /** Added to `dashboard-table-scroll`. */
  scrollClassName?: string;
  /** Set while a new page loads. */
  busy?: boolean;
}) {
  return (
    <div className={scrollClassName ? `dashboard-table-scroll ${scrollClassName}` : "dashboard-table-scroll"}>
      <table className={className ? `dashboard-table ${className}` : "dashboard-table"} id={id} aria-busy={busy}>
        <caption className="dashboard-visually-hidden">{caption}</caption>
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
          {table.getRowModel().rows.map((row) => (
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
  );
}
