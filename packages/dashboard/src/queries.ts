/** The query key of the signed-in owner's projects (per user: another sign-in never sees the last one's list). */
export const ownedProjectsKey = (userId: string) => ["owned-projects", userId] as const;
