import { useServerForFile } from "../support/users-fixture.js";

// As if behind the deployment's edge proxy, so the metrics believe the country headers it sends (http/client-ip.ts).
useServerForFile({ LATCHKEY_TRUSTED_PROXIES: "127.0.0.1, ::1" });
