import type { ProjectMetrics } from "@latchkey/core";
import { Link } from "@tanstack/react-router";
import { SimpleTable } from "../../../components/simple-table.js";

const SIGN_IN_METHODS: Record<string, string> = { password: "Password", otp: "One-time code by email", passkey: "Passkey" };
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
const signUpDate = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** A sign-in method's name in words; other kinds are OAuth providers, named by their id. */
function methodName(method: string): string {
  return SIGN_IN_METHODS[method] ?? `${method.charAt(0).toUpperCase()}${method.slice(1)} (OAuth)`;
}

function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function SignInMethods({ methods }: { methods: ProjectMetrics["signInMethods"] }) {
  if (methods.length === 0) return <p>No user has a sign-in method yet.</p>;
  return (
    <SimpleTable columns={["Method", "Users"]} caption="Sign-in methods held by the project's users">
      {methods.map((entry) => (
        <tr key={entry.method}>
          <td>{methodName(entry.method)}</td>
          <td>{entry.count}</td>
        </tr>
      ))}
    </SimpleTable>
  );
}

/** The newest users, each linking to their page. */
export function RecentSignUps({ projectId, users }: { projectId: string; users: ProjectMetrics["recentSignUps"] }) {
  if (users.length === 0) return <p>No sign-ups yet.</p>;
  return (
    <ul className="overview-list" aria-label="Recent sign-ups">
      {users.map((user) => (
        <li key={user.id}>
          <Link to="/projects/$projectId/users/$userId" params={{ projectId, userId: user.id }}>
            {user.displayName ?? user.primaryEmail ?? "Unnamed user"}
          </Link>
          <span className="dashboard-muted">
            {user.displayName && user.primaryEmail ? `${user.primaryEmail} · ` : ""}signed up {signUpDate.format(user.signedUpAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function Countries({ countries }: { countries: ProjectMetrics["usersByCountry"] }) {
  if (countries.length === 0)
    return <p>No countries known yet. They are recorded when the server runs behind an edge proxy that reports the visitor's country.</p>;
  return (
    <SimpleTable columns={["Country", "Users"]} caption="Users by the country of their latest activity">
      {countries.map((entry) => (
        <tr key={entry.country}>
          <td>{countryName(entry.country)}</td>
          <td>{entry.count}</td>
        </tr>
      ))}
    </SimpleTable>
  );
}
