#!/usr/bin/env node
// The CLI is TypeScript, run through tsx like the server (no build step).
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2));
