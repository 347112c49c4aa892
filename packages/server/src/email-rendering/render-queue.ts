/**
 * Fair share of the sandbox between projects (issue 30 §1): anyone who signs up owns a project and may render
 * email TSX, so one project's renders run one at a time (its warm isolate renders one at a time anyway) and the
 * rest wait in that project's own queue. A project whose queue is full gets a 429 with `Retry-After` (the Stack
 * SDKs wait and retry), so it cannot take every sandbox or fill the server's memory with waiting renders; other
 * projects' renders never wait behind it. Per server process, like the sandbox process it guards.
 */
import { HTTPException } from "hono/http-exception";

/** Renders of one project in the sandbox at once. */
export const RENDERS_PER_PROJECT = 1;
/** Renders of one project waiting for their turn (`LATCHKEY_EMAIL_RENDER_QUEUE`, default 64); the next one is refused. */
export const WAITING_RENDERS_PER_PROJECT = /^\d+$/.test(process.env.LATCHKEY_EMAIL_RENDER_QUEUE ?? "") ? Number(process.env.LATCHKEY_EMAIL_RENDER_QUEUE) : 64;
const RETRY_AFTER_SECONDS = 1;

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

const lanes = new Map<string, Lane>();

function queueFull(): HTTPException {
  // The protocol has no known error for this (as for the other limits): a plain 429 a client can retry after.
  const message = `Too many emails of this project are being rendered. Please try again in ${RETRY_AFTER_SECONDS} second.`;
  return new HTTPException(429, {
    message,
    res: new Response(message, { status: 429, headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(RETRY_AFTER_SECONDS) } }),
  });
}

/** Runs `render` in its turn among the renders of `project` (throws the 429 when too many are waiting). */
export async function inRenderTurn<T>(project: string, render: () => Promise<T>): Promise<T> {
  let lane = lanes.get(project);
  if (!lane) lanes.set(project, (lane = { running: 0, waiting: [] }));
  if (lane.running < RENDERS_PER_PROJECT) {
    lane.running++;
  } else {
    if (lane.waiting.length >= WAITING_RENDERS_PER_PROJECT) throw queueFull();
    // The finishing render hands its place over: `running` stays as it is.
    await new Promise<void>((resolve) => lane.waiting.push(resolve));
  }
  try {
    return await render();
  } finally {
    const next = lane.waiting.shift();
    if (next) next();
    else if (--lane.running === 0) lanes.delete(project);
  }
}
