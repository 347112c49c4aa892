// One timed load run against one server, on autocannon: fixed concurrency, bounded by time and by request
// count. A response counts as ok only when it is 2xx and the scenario's check accepts its body (Better Auth
// answers get-session with `200 null` for an unknown session); everything else is an error, and the first
// few distinct error answers are kept so the report can show them.
import autocannon from "autocannon";

const MAX_ERROR_SAMPLES = 3;

/**
 * @param {object} options
 * @param {string} options.origin        `http://127.0.0.1:<port>`
 * @param {() => {method: string, path: string, headers?: Record<string,string>, body?: string}} options.next  builds the next request
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
  const errorSamples = new Map();

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
            setupRequest: (request) => ({ ...request, ...next() }),
            // Runs synchronously just before the tracker's `response` event for the same answer.
            onResponse: (status, body, _context, rawHeaders) => {
              lastOk = status >= 200 && status < 300 && check(status, body, lowerCaseKeys(rawHeaders));
              if (lastOk) return;
              if (status >= 200 && status < 300) invalid++;
              const key = `${status} ${String(body).slice(0, 300)}`;
              if (errorSamples.size < MAX_ERROR_SAMPLES && !errorSamples.has(key)) errorSamples.set(key, 1);
              else if (errorSamples.has(key)) errorSamples.set(key, errorSamples.get(key) + 1);
            },
          },
        ],
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => {
      if (lastOk && ok < latencies.length) latencies[ok++] = ms;
    });
  });
  const elapsedSeconds = (performance.now() - started) / 1000;

  const sorted = latencies.subarray(0, ok).sort();
  const percentile = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
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
  };
}

function lowerCaseKeys(headers) {
  const lower = {};
  for (const [name, value] of Object.entries(headers ?? {})) lower[name.toLowerCase()] = value;
  return lower;
}
