import type { MetricsDay } from "@latchkey/core";
import { useEffect, useId, useRef, useSyncExternalStore } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

const CHART_HEIGHT = 200;
const HALF_DAY_SECONDS = 43_200;
const dayLabel = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
const longDayLabel = new Intl.DateTimeFormat("en", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** `YYYY-MM-DD` (a UTC day) as the Unix seconds of its midnight, uPlot's x values. */
const daySeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * A bar per day of a 31-day series, drawn by uPlot on a canvas as wide as its card (it follows the card when the
 * window resizes, down to a phone's 360 px). A canvas says nothing to a screen reader, so the chart is an image
 * named by `title`, and the same figures follow as a visually hidden table. The colours are read from the
 * dashboard's --dash-* variables, and read again when the system switches between light and dark. `unit` is what one
 * day's count counts, in the singular ("sign-up"; an "s" makes the plural).
 */
export function DailyChart({ title, days, unit }: { title: string; days: MetricsDay[]; unit: string }) {
  const id = useId();
  const container = useRef<HTMLDivElement>(null);
  const dark = useSyncExternalStore(subscribeToColorScheme, prefersDark, () => false);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const chart = new uPlot(chartOptions(element, unit), [days.map((day) => daySeconds(day.date)), days.map((day) => day.count)], element);
    const resize = new ResizeObserver(() => {
      const width = Math.floor(element.clientWidth);
      if (width > 0 && width !== chart.width) chart.setSize({ width, height: CHART_HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, unit, dark]);

  const busiest = days.reduce<MetricsDay | undefined>((best, day) => (day.count > (best?.count ?? 0) ? day : best), undefined);
  const today = days.at(-1)?.count ?? 0;
  return (
    <figure className="overview-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="dashboard-muted">
        {busiest
          ? `Today (UTC): ${today} ${today === 1 ? unit : `${unit}s`}. Busiest day: ${dayLabel.format(new Date(`${busiest.date}T00:00:00Z`))}, with ${busiest.count}.`
          : `No ${unit}s in the last ${days.length} days.`}
      </figcaption>
      <div ref={container} className="overview-chart-canvas" role="img" aria-label={`Bar chart: ${title.toLowerCase()} over the last ${days.length} days`} />
      <table className="dashboard-visually-hidden">
        <caption>{title} by day (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{`${unit[0]!.toUpperCase()}${unit.slice(1)}s`}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <td>{longDayLabel.format(new Date(`${day.date}T00:00:00Z`))}</td>
              <td>{day.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function chartOptions(element: HTMLElement, unit: string): uPlot.Options {
  const style = getComputedStyle(element);
  const colour = (name: string) => style.getPropertyValue(name).trim();
  const [muted, border, primary] = [colour("--dash-muted"), colour("--dash-border"), colour("--dash-primary")];
  // An axis's `stroke` colours its labels; the grid and ticks are drawn in the border colour.
  const axis = { stroke: muted, grid: { stroke: border, width: 0.5 }, ticks: { stroke: border, width: 0.5 } };
  return {
    width: Math.max(1, Math.floor(element.clientWidth)),
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      // A half day either side, so the first and last bars are whole; and the counts start at zero.
      x: { time: true, range: (_chart, min, max) => [min - HALF_DAY_SECONDS, max + HALF_DAY_SECONDS] },
      y: { range: (_chart, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
    },
    axes: [
      { ...axis, size: 32, values: (_chart, splits) => splits.map((seconds) => dayLabel.format(new Date(seconds * 1000))) },
      // Whole numbers only: there is no half a sign-up.
      {
        ...axis,
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 100_000],
        size: 48,
        values: (_chart, splits) => splits.map(String),
      },
    ],
    series: [{}, { label: `${unit}s`, stroke: primary, fill: primary, width: 0, paths: uPlot.paths.bars!({ size: [0.7, 24] }), points: { show: false } }],
  };
}

const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");
const prefersDark = () => darkQuery().matches;
function subscribeToColorScheme(onChange: () => void) {
  const query = darkQuery();
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
