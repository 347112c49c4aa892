// Issue 13 §2: user writes and profile images as the reference answers them. One test file, so the server's
// modules load once; each area is its own module under wire-users/. One server for the file (imported first,
// so its hooks come first); the profile images area starts its own, reachable at its public URL.
import "./wire-users/shared-server.js";
import "./wire-users/user-writes.js";
import "./wire-users/profile-images.js";
