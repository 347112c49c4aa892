// One timed load run against one server, on autocannon: fixed concurrency, bounded by time and by request
// count. A response counts as ok only when it is 2xx and the scenario's check accepts its body (Better Auth
// answers get-session with `200 null` for an unknown session); everything else is an error, and the first
// few distinct error answers are kept so the report can show them.
//
// A mixed load (mixed-load.mjs) tags each request with its operation (`op`), may give it a check of its own
// and a callback for its ok answers (a refresh hands out a new access token); the result then also has
// figures per operation.
import autocannon from "autocannon";

const MAX_ERROR_SAMPLES = 3;

/**
 * @param {object} options
 * @param {string} options.origin        `http://127.0.0.1:<port>`
 * @param {() => {method: string, path: string, headers?: Record<string,string>, body?: string, op?: string, check?: Function, onOk?: (body: string) => void}} options.next
 *   builds the next request; `op`, `check` and `onOk` are for mixed loads
 * @param {(status: number, body: string, headers: Record<string, string | string[]>) => boolean} options.check  whether a 2xx answer is the expected one
 * @param {number} options.connections
 * @param {number} options.seconds
 * @param {number} options.maxRequests
 */
export async function runLoad({ origin, next, check, connections, seconds, maxRequests }) {
  if (new URL(origin).hostname !== "127.0.0.1") throw new Error(`refusing to load ${origin}: the bench only targets 127.0.0.1`);
  const latencies = new Float64Array(maxRequests + connections);
  let ok = 0;
  let invalid = 0;
  let lastOk = false;
  let lastOp;
  const errorSamples = new Map();
  /** op → { ok, errors, serverErrors, latencies } */
  const byOperation = new Map();
  const operation = (op) => {
    if (!byOperation.has(op)) byOperation.set(op, { ok: 0, errors: 0, serverErrors: 0, latencies: [] });
    return byOperation.get(op);
  };

  const started = performance.now();
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections,
        duration: seconds,
        maxOverallRequests: maxRequests,
        timeout: 30,
        requests: [
          {
            setupRequest: (request, context) => {
              const { op, check: checkOfRequest, onOk, ...built } = next();
              Object.assign(context, { op, check: checkOfRequest, onOk });
              return { ...request, ...built };
            },
            // Runs synchronously just before the tracker's `response` event for the same answer.
            onResponse: (status, body, context, rawHeaders) => {
              lastOp = context.op;
              lastOk = status >= 200 && status < 300 && (context.check ?? check)(status, body, lowerCaseKeys(rawHeaders));
              if (lastOk) {
                context.onOk?.(body);
                return;
              }
              if (lastOp !== undefined) {
                operation(lastOp).errors++;
                if (status >= 500) operation(lastOp).serverErrors++;
              }
              if (status >= 200 && status < 300) invalid++;
              const key = `${lastOp === undefined ? "" : `${lastOp}: `}${status} ${String(body).slice(0, 300)}`;
              if (errorSamples.size < MAX_ERROR_SAMPLES && !errorSamples.has(key)) errorSamples.set(key, 1);
              else if (errorSamples.has(key)) errorSamples.set(key, errorSamples.get(key) + 1);
            },
          },
        ],
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => {
      if (lastOk && lastOp !== undefined) {
        operation(lastOp).ok++;
        operation(lastOp).latencies.push(ms);
      }
      if (lastOk && ok < latencies.length) latencies[ok++] = ms;
    });
  });
  const elapsedSeconds = (performance.now() - started) / 1000;

  const sorted = latencies.subarray(0, ok).sort();
  const percentile = (p) => percentileOf(sorted, p);
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, { count }]) => `${code}×${count}`);
  return {
    requests: result.requests.total,
    ok,
    okPerSecond: ok / elapsedSeconds,
    p50: percentile(50),
    p99: percentile(99),
    // autocannon's `errors` are socket errors and time-outs; non-2xx answers and wrong 2xx bodies are ours.
    errors: result.errors + result.non2xx + invalid,
    detail: [
      ...statuses,
      ...(invalid ? [`2xx with an unexpected body×${invalid}`] : []),
      ...(result.errors ? [`socket errors/time-outs×${result.errors}`] : []),
    ],
    samples: [...errorSamples.entries()].map(([key, count]) => `${count}× ${key}`),
    seconds: elapsedSeconds,
    // Only for requests tagged with an `op`: their ok answers' latencies, unsorted.
    byOperation: Object.fromEntries(byOperation),
    socketErrors: result.errors,
    serverErrors: Object.entries(result.statusCodeStats ?? {}).reduce((sum, [code, { count }]) => sum + (Number(code) >= 500 ? count : 0), 0),
  };
}

/** The `p`th percentile of ascending `sorted` latencies; NaN when there are none. */
export function percentileOf(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

function lowerCaseKeys(headers) {
  const lower = {};
  for (const [name, value] of Object.entries(headers ?? {})) lower[name.toLowerCase()] = value;
  return lower;
}
