/** axe-core in the test page: loaded once from node_modules, run with the WCAG 2.x A and AA rules. */
interface AxeResult {
  violations: Array<{ id: string; help: string; nodes: Array<{ target: string[] }> }>;
}
declare global {
  interface Window {
    axe?: { run(context: Element, options: unknown): Promise<AxeResult> };
  }
}

/** axe-core's WCAG 2.x A/AA rules over `context`: the violations, readable. */
export async function axe(context: Element): Promise<string[]> {
  if (!window.axe) {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = "/node_modules/axe-core/axe.min.js";
      script.onload = () => resolve();
      script.onerror = reject;
      document.head.append(script);
    });
  }
  const result = await window.axe!.run(context, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
