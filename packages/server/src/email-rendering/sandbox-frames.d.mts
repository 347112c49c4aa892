import type { Socket } from "node:net";
export declare function writeFrame(socket: Socket, message: unknown, callback?: (error?: Error | null) => void): void;
export declare function readFrames(socket: Socket, onMessage: (message: unknown) => void): void;
