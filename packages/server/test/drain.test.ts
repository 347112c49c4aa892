import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { beginWork, Drain, waitForRoute } from "../src/http/drain.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const request = () => new Request("http://localhost/api/v1/auth/password/sign-up", { method: "POST" });
const SHUTTING_DOWN = "The server is shutting down. Please try again.";

/** A request's handling as the app does it: waits for its route, then (once let through) starts and works until finished. */
function apiRequest(drain: Drain) {
  const raw = request();
  let reachRoute!: () => void;
  let finish!: () => void;
  const routeReached = new Promise<void>((resolve) => (reachRoute = resolve));
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  const answer = drain.serve(raw, async () => {
    waitForRoute(raw);
    await routeReached;
    try {
      beginWork(raw);
    } catch {
      return new Response("stopped before its work");
    }
    started = true;
    await finished;
    return new Response("done");
  });
  return { answer, reachRoute, finish, started: () => started };
}

/**
 * Serves `count` requests and keeps only weak references to their answers. In a function of its own: a suspended async
 * function may keep the value of its last `await` in its saved frame, and the test's frame once kept the last answer
 * alive that way (a CI run, the file in a worker thread shared with other files), which the drain did not hold.
 */
async function weaklyHeldAnswers(drain: Drain, count: number): Promise<WeakRef<Response>[]> {
  const answers: WeakRef<Response>[] = [];
  for (let i = 0; i < count; i++) answers.push(new WeakRef(await drain.serve(request(), () => new Response(`answer ${i}`))));
  return answers;
}

describe("the shutdown drain", () => {
  // The 5-minute mixed load (bench/mixed-load.mjs) grew the server by ~360 MiB a minute: every request raced one
  // promise that lives until shutdown, and each race left a reaction on it holding the request's answer.
  it("keeps nothing of the requests it has answered", async () => {
    const drain = new Drain();
    const answers = await weaklyHeldAnswers(drain, 200);
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(answers.filter((answer) => answer.deref() !== undefined)).toHaveLength(0);
  });

  it("lets requests finish while closing, telling their clients to close the connection", async () => {
    const drain = new Drain();
    const slow = apiRequest(drain);
    drain.startClosing();
    slow.reachRoute();
    await nextTurn();
    slow.finish();
    const answer = await slow.answer;
    expect([answer.status, await answer.text(), answer.headers.get("connection")]).toEqual([200, "done", "close"]);
  });

  // Issue 30: with a 300 ms grace, sign-ups that had committed were answered 503 "try again" (their retry got 409).
  it("when the grace passes, answers a started request with its own result once done, however long that takes", async () => {
    const drain = new Drain();
    const started = apiRequest(drain);
    started.reachRoute();
    await nextTurn();
    expect(started.started()).toBe(true);
    drain.startClosing();
    let drained = false;
    const giveUp = drain.giveUp().then(() => (drained = true));
    await nextTurn();
    expect(drained).toBe(false);
    started.finish();
    const answer = await started.answer;
    expect([answer.status, await answer.text(), answer.headers.get("connection")]).toEqual([200, "done", "close"]);
    await giveUp;
  });

  it("when the grace passes, answers a request still waiting for its route 503 and never lets it start", async () => {
    const drain = new Drain();
    const waiting = apiRequest(drain);
    await nextTurn();
    drain.startClosing();
    await drain.giveUp();
    const answer = await waiting.answer;
    expect([answer.status, await answer.text(), answer.headers.get("connection"), answer.headers.get("retry-after")]).toEqual([503, SHUTTING_DOWN, "close", "1"]);
    waiting.reachRoute();
    await nextTurn();
    expect(waiting.started()).toBe(false);
  });

  it("counts a request outside the API's route pipeline as started when it arrives", async () => {
    const drain = new Drain();
    let finish!: () => void;
    const page = drain.serve(request(), () => new Promise<Response>((resolve) => (finish = () => resolve(new Response("page")))));
    await nextTurn();
    expect(drain.counts()).toEqual({ inFlight: 1, notStarted: 0 });
    const giveUp = drain.giveUp();
    finish();
    expect((await page).status).toBe(200);
    await giveUp;
  });

  it("answers 503 to requests arriving after the grace", async () => {
    const drain = new Drain();
    await drain.giveUp();
    const late = await drain.serve(request(), () => new Response("late"));
    expect([late.status, await late.text()]).toEqual([503, SHUTTING_DOWN]);
  });

  it("at the hard limit, answers a request still running 500 with its outcome unknown, never 'try again'", async () => {
    const drain = new Drain();
    const stuck = apiRequest(drain);
    stuck.reachRoute();
    await nextTurn();
    const drained = drain.giveUp();
    drain.abandon();
    const answer = await stuck.answer;
    expect([answer.status, await answer.text(), answer.headers.get("connection"), answer.headers.get("retry-after")]).toEqual([
      500,
      "The server shut down before this request finished. It may or may not have taken effect.",
      "close",
      null,
    ]);
    await drained;
  });
});
