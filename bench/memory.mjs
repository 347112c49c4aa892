// Resident memory of server processes, sampled from /proc (Linux), and whether it stays flat: the slope of
// a least-squares line through the samples taken after the warm-up. Elsewhere than Linux every sample is NaN.
import { readFileSync } from "node:fs";

/** VmRSS of one process in MiB, NaN when it is gone or /proc is not there. */
export function rssMiB(pid) {
  try {
    const line = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return line ? Number(line[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Samples the RSS of each pid every `everySeconds` until `stop()`; `stop()` returns the samples
 * `{ seconds, mib: number[] }`, seconds counted from the start.
 */
export function sampleRss(pids, everySeconds) {
  const started = performance.now();
  const samples = [];
  const take = () => samples.push({ seconds: (performance.now() - started) / 1000, mib: pids.map(rssMiB) });
  take();
  const timer = setInterval(take, everySeconds * 1000);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Slope in MiB per minute of `values` against `seconds` (least squares); NaN for fewer than 3 points. */
export function slopePerMinute(seconds, values) {
  const points = seconds.map((x, i) => [x, values[i]]).filter(([, y]) => Number.isFinite(y));
  if (points.length < 3) return NaN;
  const meanX = points.reduce((s, [x]) => s + x, 0) / points.length;
  const meanY = points.reduce((s, [, y]) => s + y, 0) / points.length;
  const sxy = points.reduce((s, [x, y]) => s + (x - meanX) * (y - meanY), 0);
  const sxx = points.reduce((s, [x]) => s + (x - meanX) ** 2, 0);
  return sxx === 0 ? NaN : (60 * sxy) / sxx;
}
