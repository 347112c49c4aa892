import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Drain } from "../src/http/drain.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the shutdown drain", () => {
  // The 5-minute mixed load (bench/mixed-load.mjs) grew the server by ~360 MiB a minute: every request raced one
  // promise that lives until shutdown, and each race left a reaction on it holding the request's answer.
  it("keeps nothing of the requests it has answered", async () => {
    const drain = new Drain();
    const answers: WeakRef<Response>[] = [];
    for (let i = 0; i < 200; i++) answers.push(new WeakRef(await drain.serve(() => new Response(`answer ${i}`))));
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(answers.filter((answer) => answer.deref() !== undefined)).toHaveLength(0);
  });

  it("answers 503 to requests still in flight when it gives up, and to any after", async () => {
    const drain = new Drain();
    const served = await drain.serve(() => new Response("quick"));
    expect(served.status).toBe(200);
    const stuck = drain.serve(() => new Promise<Response>(() => {}));
    drain.startClosing();
    await drain.giveUp();
    const answer = await stuck;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("connection")).toBe("close");
    expect((await drain.serve(() => new Response("late"))).status).toBe(503);
  });

  it("lets requests finish while closing, telling their clients to close the connection", async () => {
    const drain = new Drain();
    let finish!: () => void;
    const slow = drain.serve(() => new Promise<Response>((resolve) => (finish = () => resolve(new Response("done")))));
    drain.startClosing();
    await nextTurn();
    finish();
    const answer = await slow;
    expect([answer.status, await answer.text(), answer.headers.get("connection")]).toEqual([200, "done", "close"]);
  });
});
