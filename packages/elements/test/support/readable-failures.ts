/**
 * Loaded by web-test-runner's page before the test file (web-test-runner.config.mjs, testRunnerHtml).
 *
 * A failed assertion whose `actual` or `expected` is a DOM node (e.g. `expect(document.activeElement)
 * .to.equal(button)`) never reaches the runner: web-test-runner's report of the session stalls on it, the
 * failure message is lost, and the whole run waits for `testsFinishTimeout` (it hung a CI run for 300 s).
 * A root hook turns such values into their markup before the report is built, so the failure is reported
 * like any other, with what was compared.
 */
declare const mocha: { suite: { afterEach(hook: (this: { currentTest?: { err?: unknown } }) => void): void } };

const MAX_MARKUP = 500;

function describeNode(node: Node): string {
  const markup = node instanceof Element ? node.outerHTML : (node.textContent ?? node.nodeName);
  return markup.length > MAX_MARKUP ? `${markup.slice(0, MAX_MARKUP)}…` : markup;
}

/** The value with every DOM node (at the top or inside arrays and plain objects) replaced by its markup. */
function readable(value: unknown, depth = 0): unknown {
  if (value instanceof Node) return describeNode(value);
  if (depth > 4 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => readable(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, readable(item, depth + 1)]));
}

mocha.suite.afterEach(function makeFailureReadable() {
  const err = this.currentTest?.err as { actual?: unknown; expected?: unknown } | undefined;
  if (!err || typeof err !== "object") return;
  if ("actual" in err) err.actual = readable(err.actual);
  if ("expected" in err) err.expected = readable(err.expected);
});
