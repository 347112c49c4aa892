import { readEnvOrExit } from "./env.js";
import { runServer } from "./run-server.js";
import { StartupError } from "./startup-error.js";

/** `npm start`: the server with the configuration of the environment (see the README's table). */
runServer(readEnvOrExit()).catch((error) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});
