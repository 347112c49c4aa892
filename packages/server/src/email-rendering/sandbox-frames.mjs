// Messages between servers and a sandbox process shared over a Unix socket (sandbox-process.mjs `--listen`), as
// the forked process's IPC channel carries them: each one V8-serialized, behind its length (4 bytes, big-endian).
// A test run starts one such process for every server its workers start in-process, instead of one per test file
// (test/support/email-sandbox.global.ts): the process, the libraries loaded into an isolate and the first render's
// cold code cost ~1 s of CPU each time.
import { deserialize, serialize } from "node:v8";

/** Larger than any message either side sends (a render's answer is bounded by sandbox-limits.mjs, ~12 MB at most). */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export function writeFrame(socket, message, callback) {
  const body = serialize(message);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  socket.write(Buffer.concat([length, body]), callback);
}

/** Calls `onMessage` with each whole message that arrives; a frame past the bound ends the connection. */
export function readFrames(socket, onMessage) {
  let buffered = Buffer.alloc(0);
  socket.on("data", (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const length = buffered.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) {
        socket.destroy(new Error("a sandbox message was larger than allowed"));
        return;
      }
      if (buffered.length < 4 + length) return;
      const message = deserialize(buffered.subarray(4, 4 + length));
      buffered = buffered.subarray(4 + length);
      onMessage(message);
    }
  });
}
