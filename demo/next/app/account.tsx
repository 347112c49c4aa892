"use client";
import { AuthUserButton, useUser } from "@latchkey/react";

/** Who is signed in, from `useUser()`: "Loading…" in the server-rendered HTML, then the user or "Signed out". */
export function Account() {
  const user = useUser();
  if (user === undefined) return <p role="status">Loading…</p>;
  if (user === null) return <p role="status">Signed out</p>;
  return (
    <>
      <p role="status">Signed in as {user.primaryEmail}</p>
      <AuthUserButton />
    </>
  );
}
