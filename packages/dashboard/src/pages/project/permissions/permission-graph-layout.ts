import type { PermissionDefinition } from "@latchkey/core";

/**
 * Lays the contained-permission relation out in layers: a permission that no other contains is on the top
 * layer, and each other one a layer below the lowest permission that contains it, so every edge points
 * down. A layer wider than `maxWidth` wraps onto more rows. The server refuses cycles; a guard keeps a
 * cycle from a hand-edited config from looping here.
 */

export interface GraphNode {
  id: string;
  isSystem: boolean;
  x: number;
  y: number;
  width: number;
}
export interface GraphEdge {
  from: string;
  to: string;
}
export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export const NODE_HEIGHT = 28;
const ROW_GAP = 36;
const NODE_GAP = 16;
const MARGIN = 8;
/** Monospace labels at 12px: about 7.3px a character, plus padding. */
const nodeWidth = (id: string) => Math.ceil(id.length * 7.3) + 20;

export function layoutPermissionGraph(definitions: PermissionDefinition[], maxWidth = 960): GraphLayout {
  const known = new Set(definitions.map((d) => d.id));
  const edges: GraphEdge[] = definitions.flatMap((d) => d.containedPermissionIds.filter((to) => known.has(to)).map((to) => ({ from: d.id, to })));
  const parents = new Map<string, string[]>();
  for (const edge of edges) parents.set(edge.to, [...(parents.get(edge.to) ?? []), edge.from]);

  const layerOf = new Map<string, number>();
  const visiting = new Set<string>();
  const layer = (id: string): number => {
    const known = layerOf.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const value = Math.max(-1, ...(parents.get(id) ?? []).map(layer)) + 1;
    visiting.delete(id);
    layerOf.set(id, value);
    return value;
  };
  const layers: PermissionDefinition[][] = [];
  for (const definition of definitions) (layers[layer(definition.id)] ??= []).push(definition);

  const nodes: GraphNode[] = [];
  const xCenter = new Map<string, number>();
  let y = MARGIN;
  let width = 0;
  for (const members of layers) {
    if (!members) continue;
    // Each permission under the middle of those containing it, roughly: fewer crossing edges.
    const barycenter = (d: PermissionDefinition) => {
      const xs = (parents.get(d.id) ?? []).map((p) => xCenter.get(p)).filter((x): x is number => x !== undefined);
      return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.POSITIVE_INFINITY;
    };
    const ordered = [...members].sort((a, b) => barycenter(a) - barycenter(b) || a.id.localeCompare(b.id));
    let x = MARGIN;
    for (const definition of ordered) {
      const w = nodeWidth(definition.id);
      if (x > MARGIN && x + w > maxWidth - MARGIN) {
        x = MARGIN;
        y += NODE_HEIGHT + ROW_GAP;
      }
      nodes.push({ id: definition.id, isSystem: definition.isSystem, x, y, width: w });
      xCenter.set(definition.id, x + w / 2);
      x += w + NODE_GAP;
      width = Math.max(width, x - NODE_GAP + MARGIN);
    }
    y += NODE_HEIGHT + ROW_GAP;
  }
  return { nodes, edges, width: Math.max(width, 2 * MARGIN), height: Math.max(y - ROW_GAP + MARGIN, 2 * MARGIN) };
}
