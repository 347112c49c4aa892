// Issue 13: projects, transfer, metrics and the email routes as the reference answers them, area by area.
// One test file, so the server's modules load once; each area is its own module under wire-projects/.
// One server for the file (imported first, so its hooks come first).
import "./wire-projects/shared-server.js";
import "./wire-projects/project-config.js";
import "./wire-projects/transfer.js";
import "./wire-projects/metrics.js";
import "./wire-projects/metrics-activity.js";
import "./wire-projects/email-shapes.js";
import "./wire-projects/feature-support.js";
