import type { ReactNode } from "react";

/**
 * A `.dashboard-table` whose rows the page draws itself (`children`: the `<tr>`s), under one header row of
 * column names. It scrolls inside its card on a phone; `region` makes the scroll box a named region a keyboard
 * can reach (and scroll), `caption` names the table for screen readers without showing the name.
 */
export function SimpleTable({
  columns,
  caption,
  label,
  region,
  className,
  scrollClassName,
  children,
}: {
  /** The column headers, in order. */
  columns: ReactNode[];
  caption?: string;
  /** The table's accessible name, when it has no caption. */
  label?: string;
  region?: string;
  /** Added to `dashboard-table` (e.g. a minimum width). */
  className?: string;
  /** Added to `dashboard-table-scroll`. */
  scrollClassName?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={scrollClassName ? `dashboard-table-scroll ${scrollClassName}` : "dashboard-table-scroll"}
      {...(region !== undefined ? { tabIndex: 0, role: "region", "aria-label": region } : {})}
    >
      <table className={className ? `dashboard-table ${className}` : "dashboard-table"} aria-label={label}>
        {caption !== undefined ? <caption className="dashboard-visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
