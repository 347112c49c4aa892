import type { PermissionDefinition } from "@latchkey/core";
import { useId } from "react";
import { NODE_HEIGHT, layoutPermissionGraph } from "./permission-graph-layout.js";

/**
 * The contained-permission relation of one scope as a small SVG drawing: a box per permission (system ones
 * dashed), an arrow from each permission to each it contains. The same relation is written out as a list
 * for screen readers (and is the table's "Contains" column).
 */
export function PermissionGraph({ definitions, label }: { definitions: PermissionDefinition[]; label: string }) {
  const id = useId();
  const layout = layoutPermissionGraph(definitions);
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  const containing = definitions.filter((d) => d.containedPermissionIds.length > 0);
  return (
    <figure className="permissions-figure" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="dashboard-muted">
        {label}: an arrow points from a permission to each permission it contains.
      </figcaption>
      <div className="permissions-graph" tabIndex={0} role="region" aria-label={label}>
        <svg
          width={layout.width}
          height={layout.height}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-text`}
        >
          <title id={`${id}-title`}>{label}</title>
          <defs>
            <marker id={`${id}-arrow`} viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" />
            </marker>
          </defs>
          {layout.edges.map((edge) => {
            const from = byId.get(edge.from)!;
            const to = byId.get(edge.to)!;
            const x1 = from.x + from.width / 2;
            const y1 = from.y + NODE_HEIGHT;
            const x2 = to.x + to.width / 2;
            const y2 = to.y;
            const middle = (y1 + y2) / 2;
            return (
              <path
                key={`${edge.from}>${edge.to}`}
                className="permissions-edge"
                data-edge={`${edge.from} contains ${edge.to}`}
                d={`M ${x1} ${y1} C ${x1} ${middle}, ${x2} ${middle}, ${x2} ${y2}`}
                markerEnd={`url(#${id}-arrow)`}
              >
                <title>{`${edge.from} contains ${edge.to}`}</title>
              </path>
            );
          })}
          {layout.nodes.map((node) => (
            <g key={node.id} className={node.isSystem ? "permissions-node permissions-system" : "permissions-node"} data-permission={node.id}>
              <rect x={node.x} y={node.y} width={node.width} height={NODE_HEIGHT} rx={6} />
              <text x={node.x + node.width / 2} y={node.y + NODE_HEIGHT / 2} textAnchor="middle" dominantBaseline="central">
                {node.id}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <div id={`${id}-text`} className="dashboard-visually-hidden">
        {containing.length === 0
          ? "No permission contains another."
          : containing.map((d) => `${d.id} contains ${d.containedPermissionIds.join(", ")}.`).join(" ")}
      </div>
    </figure>
  );
}
