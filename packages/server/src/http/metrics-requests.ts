import { Counter, Histogram, type Registry } from "prom-client";

/**
 * Request counts and latencies by method, route pattern and status, for `/metrics`.
 *
 * prom-client's own `observe(labels, value)` builds a labels object and a key string on every call; here each
 * request only walks three maps keyed by strings it already has and bumps numbers in a series made the first
 * time that method, route and status were seen. prom-client formats the tallies when Prometheus scrapes.
 * The route is the pattern a request matched (`/api/v1/users/:user_id`), never its path, so the number of
 * series stays bounded whatever clients send.
 */

// Seconds. Sign-in is bound by argon2 (~10–30 ms); reads answer in a few ms; a slow database shows above 1 s.
export const REQUEST_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface Series {
  /** Observations per bucket, not cumulative (made cumulative when scraped); the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export class RequestTallies {
  private readonly byMethod = new Map<string, Map<string, Map<number, Series>>>();

  record(method: string, route: string, status: number, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : "OTHER";
    let byRoute = this.byMethod.get(m);
    if (!byRoute) this.byMethod.set(m, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = { buckets: new Float64Array(REQUEST_DURATION_BUCKETS.length + 1), sum: 0, count: 0 }));
    let slot = 0;
    while (slot < REQUEST_DURATION_BUCKETS.length && seconds > REQUEST_DURATION_BUCKETS[slot]!) slot++;
    series.buckets[slot]!++;
    series.sum += seconds;
    series.count++;
  }

  *series(): Generator<{ labels: { method: string; route: string; status: string }; series: Series }> {
    for (const [method, byRoute] of this.byMethod)
      for (const [route, byStatus] of byRoute) for (const [status, series] of byStatus) yield { labels: { method, route, status: String(status) }, series };
  }
}

type MetricSnapshot = { name: string; help: string; type: string; aggregator: string; values: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }> };

/** Registers `latchkey_http_requests_total` and `latchkey_http_request_duration_seconds`, read from `tallies`. */
export function registerRequestMetrics(registry: Registry, tallies: RequestTallies): void {
  registry.registerMetric(new TalliedRequestCounter(tallies, registry));
  registry.registerMetric(new TalliedRequestHistogram(tallies, registry));
}

const COUNTER = { name: "latchkey_http_requests_total", help: "HTTP requests answered, by method, route pattern and status." };
const HISTOGRAM = { name: "latchkey_http_request_duration_seconds", help: "Time from receiving a request to its answer, by method, route pattern and status." };

// prom-client formats (and escapes) whatever a metric's get() returns; these two answer from the tallies.
class TalliedRequestCounter extends Counter<"method" | "route" | "status"> {
  constructor(
    private readonly tallies: RequestTallies,
    registry: Registry,
  ) {
    super({ ...COUNTER, labelNames: ["method", "route", "status"], registers: [registry] });
  }
  override async get() {
    const values = [...this.tallies.series()].map(({ labels, series }) => ({ labels, value: series.count }));
    return snapshot(COUNTER, "counter", values);
  }
  async getForPromString() {
    return this.get();
  }
}

class TalliedRequestHistogram extends Histogram<"method" | "route" | "status"> {
  constructor(
    private readonly tallies: RequestTallies,
    registry: Registry,
  ) {
    super({
      ...HISTOGRAM,
      labelNames: ["method", "route", "status"],
      buckets: [...REQUEST_DURATION_BUCKETS],
      registers: [registry],
    });
  }
  override async get() {
    const { name } = HISTOGRAM;
    const values: MetricSnapshot["values"] = [];
    for (const { labels, series } of this.tallies.series()) {
      let cumulative = 0;
      REQUEST_DURATION_BUCKETS.forEach((bound, slot) => {
        cumulative += series.buckets[slot]!;
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...labels, le: "+Inf" }, value: series.count, metricName: `${name}_bucket` });
      values.push({ labels, value: series.sum, metricName: `${name}_sum` });
      values.push({ labels, value: series.count, metricName: `${name}_count` });
    }
    return snapshot(HISTOGRAM, "histogram", values);
  }
  async getForPromString() {
    return this.get();
  }
}

// prom-client's typings call the type an enum while its formatter writes the string it holds.
function snapshot(metric: { name: string; help: string }, type: string, values: MetricSnapshot["values"]): never {
  return { ...metric, type, aggregator: "sum", values } satisfies MetricSnapshot as never;
}
