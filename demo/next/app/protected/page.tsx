import { auth } from "@latchkey/next";
import { redirect } from "next/navigation";

// Rendered for each request: it reads the request's session.
export const dynamic = "force-dynamic";

/** A Server Action reading the user on its own: its answer comes back in the URL, so no client code is needed. */
async function whoAmI() {
  "use server";
  const user = await auth();
  redirect(`/protected?action=${encodeURIComponent(user?.primaryEmail ?? "nobody")}`);
}

/**
 * A page only signed-in users see, rendered on the server with the user from `auth()`: proxy.ts has sent
 * signed-out visitors to /sign-in already, and the page checks again (as it must if the proxy's matcher missed).
 * It has no Latchkey client code, so what it shows is the server's reading of the session alone.
 */
export default async function Protected(props: { searchParams: Promise<{ action?: string }> }) {
  const user = await auth();
  if (!user) redirect("/sign-in?after_auth_return_to=/protected");
  const { action } = await props.searchParams;
  return (
    <main>
      <h1>Members only</h1>
      <p role="status">Signed in on the server as {user.primaryEmail}</p>
      <form action={whoAmI}>
        <button type="submit">Ask a Server Action</button>
      </form>
      {action ? <p>The Server Action saw {action}</p> : null}
    </main>
  );
}
