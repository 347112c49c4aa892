// Issue 14: what each protocol version reads and may send, area by area (users, projects, team invitations,
// the smaller calls of the 2.8.108 client). One test file, so the server's modules load once for all four;
// each area is its own module under dialect-areas/.
// One server for the file (imported first, so its hooks come first); the team invitations area starts its
// own, with an SMTP capture.
import "./dialect-areas/shared-server.js";
import "./dialect-areas/users.js";
import "./dialect-areas/projects.js";
import "./dialect-areas/invitations.js";
import "./dialect-areas/small-calls.js";
