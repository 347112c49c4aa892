import { onboardingPreviewBody, onboardingPreviewQuery, onboardingPreviewResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { usersAffectedByOnboarding } from "../services/onboarding-preview.js";
import { restrictionPolicy } from "../services/user-restrictions.js";

/** How many affected users a preview lists when the request names no `limit`. */
const DEFAULT_PREVIEW_LIMIT = 10;

/** `/internal/onboarding/*` (2.8.108, admin): what an onboarding setting would do before it is saved. */
export const internalOnboardingRoutes = [
  defineRoute({
    method: "post",
    path: "/internal/onboarding/preview-affected-users",
    summary: "Preview who an onboarding change would restrict",
    description:
      "The users allowed in now whom the given onboarding settings would restrict (today: `require_email_verification` holds back users without a verified " +
      "primary email), the first `limit` (10 by default) in sign-up order with the reason each would get, and `total_affected_count`. Nothing is changed.",
    tags: ["Users"],
    access: ["admin"],
    request: { query: onboardingPreviewQuery, body: onboardingPreviewBody },
    response: { description: "The affected users.", schema: onboardingPreviewResponse },
    handler: async (c, { auth, query, body }) => {
      const current = restrictionPolicy(auth.project);
      const next = { requireEmailVerification: body.onboarding.require_email_verification ?? current.requireEmailVerification };
      const { users, total } = await usersAffectedByOnboarding(c.get("deps").db, auth.project.id, current, next, query.limit ?? DEFAULT_PREVIEW_LIMIT);
      return { affected_users: users, total_affected_count: total };
    },
  }),
];
