"use client";
import { useAuth, useProject, useTeams, useUser } from "@latchkey/react";

/** As packages/react/README.md writes it: "Loading…" until the user is known, then who it is or "Signed out". */
export function Greeting() {
  const user = useUser();
  if (user === undefined) return <p role="status">Loading…</p>;
  return <p role="status">{user ? `Hello ${user.primaryEmail}` : "Signed out"}</p>;
}

/** The other hooks, each read on the same page. */
export function SessionFacts() {
  const { isLoaded, isSignedIn } = useAuth();
  const teams = useTeams();
  const project = useProject();
  return (
    <ul>
      <li>Session: {isLoaded ? (isSignedIn ? "signed in" : "signed out") : "loading"}</li>
      <li>Teams: {teams === undefined ? "loading" : teams.length}</li>
      <li>Project: {project === undefined ? "loading" : project.displayName}</li>
    </ul>
  );
}
