import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { QueryState } from "../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { UserApiKeysCard } from "./users/user-api-keys-card.js";
import { UserContactChannelsCard } from "./users/user-contact-channels-card.js";
import { UserDeleteCard } from "./users/user-delete-card.js";
import { UserImpersonateCard } from "./users/user-impersonate-card.js";
import { UserMetadataCard } from "./users/user-metadata-card.js";
import { UserOAuthLinksCard } from "./users/user-oauth-links-card.js";
import { UserPermissionsCard } from "./users/user-permissions-card.js";
import { UserProfileCard } from "./users/user-profile-card.js";
import { UserSessionsCard } from "./users/user-sessions-card.js";
import { UserTeamsCard } from "./users/user-teams-card.js";
import { userKey } from "./users/user-queries.js";
import "./users/users.css";

/**
 * One user of the project: profile, emails, metadata, sessions, teams, permissions, linked accounts and API
 * keys, impersonation and deletion. Each card loads its own part, so one failing does not hide the others.
 */
export function UserPage() {
  const projectId = useProjectId();
  const { userId } = useParams({ strict: false }) as { userId?: string };
  if (!userId) throw new Error("UserPage is for /projects/$projectId/users/$userId.");
  const admin = useProjectAdmin(projectId);
  const user = useQuery({ queryKey: userKey(projectId, userId), queryFn: () => admin.getUserById(userId) });

  return (
    <>
      <p>
        <Link to="/projects/$projectId/users" params={{ projectId }}>
          ← All users
        </Link>{" "}
        ·{" "}
        <Link to="/projects/$projectId/payments" params={{ projectId }} search={{ tab: "customers", customer: `user:${userId}` }}>
          Items and purchases
        </Link>
      </p>
      <QueryState
        query={user}
        what="the user"
        isEmpty={(found) => found === null}
        empty={
          <p role="alert" className="dashboard-card">
            This project has no user with the id <code className="dashboard-code">{userId}</code>. They may have been deleted.
          </p>
        }
      >
        {(found) =>
          found && (
            <>
              <UserProfileCard projectId={projectId} user={found} />
              <UserContactChannelsCard projectId={projectId} userId={userId} />
              <UserMetadataCard key={found.id} projectId={projectId} user={found} />
              <UserSessionsCard projectId={projectId} userId={userId} />
              <UserImpersonateCard projectId={projectId} userId={userId} />
              <UserTeamsCard projectId={projectId} userId={userId} />
              <UserPermissionsCard projectId={projectId} userId={userId} />
              <UserOAuthLinksCard projectId={projectId} userId={userId} />
              <UserApiKeysCard projectId={projectId} userId={userId} />
              <UserDeleteCard projectId={projectId} user={found} />
            </>
          )
        }
      </QueryState>
    </>
  );
}
