import { auth } from "@latchkey/next";

export const dynamic = "force-dynamic";

/** The signed-in user as JSON, or 401: a Route Handler reading the session cookies (or a bearer token). */
export async function GET() {
  const user = await auth();
  if (!user) return Response.json({ error: "Sign in first" }, { status: 401 });
  return Response.json({ id: user.id, email: user.primaryEmail });
}
