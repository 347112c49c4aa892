import { describe, expect, it } from "vitest";
import { cachedStore } from "../src/stores/cached-store.js";
import { ManualClock } from "./support/manual-clock.js";

function counterStore() {
  const clock = new ManualClock();
  let loads = 0;
  const $store = cachedStore(async () => ++loads, clock);
  return { $store, clock, loads: () => loads };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("cached stores (SPEC §4, §9)", () => {
  it("loads nothing until the first subscriber arrives", async () => {
    const { $store, loads } = counterStore();
    await settle();
    expect(loads()).toBe(0);
    const stop = $store.listen(() => {});
    await settle();
    expect(loads()).toBe(1);
    expect($store.get()).toEqual({ status: "ready", value: 1 });
    stop();
  });

  it("keeps its value for a subscriber who returns within 5 s", async () => {
    const { $store, clock, loads } = counterStore();
    $store.listen(() => {})();
    await settle();
    clock.advance(4_999);
    const stop = $store.listen(() => {});
    await settle();
    expect(loads()).toBe(1);
    expect($store.get()).toEqual({ status: "ready", value: 1 });
    stop();
  });

  it("drops its value 5 s after the last subscriber left, so the next one reloads", async () => {
    const { $store, clock, loads } = counterStore();
    $store.listen(() => {})();
    await settle();
    clock.advance(5_000);
    expect($store.value).toEqual({ status: "loading" });
    const stop = $store.listen(() => {});
    await settle();
    expect(loads()).toBe(2);
    expect($store.get()).toEqual({ status: "ready", value: 2 });
    stop();
  });

  it("reloads for its subscribers after a change", async () => {
    const { $store } = counterStore();
    const values: unknown[] = [];
    const stop = $store.subscribe((value) => values.push(value));
    await settle();
    await $store.refresh();
    expect(values).toEqual([{ status: "loading" }, { status: "ready", value: 1 }, { status: "ready", value: 2 }]);
    stop();
  });

  it("reports a failed load as an error state", async () => {
    const $store = cachedStore(async () => {
      throw new Error("down");
    }, new ManualClock());
    const stop = $store.listen(() => {});
    await settle();
    const state = $store.get();
    expect(state.status).toBe("error");
    stop();
  });
});
