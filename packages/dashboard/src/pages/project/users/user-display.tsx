import type { ServerUser } from "@latchkey/core";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A date and time in the reader's locale, in a `<time>` that carries the exact instant. */
export function DateTime({ value }: { value: Date | null }) {
  if (!value) return <span className="dashboard-muted">Never</span>;
  return <time dateTime={value.toISOString()}>{dateTime.format(value)}</time>;
}

/** What to call a user: their display name, else their email, else their id. */
export function userName(user: Pick<ServerUser, "displayName" | "primaryEmail" | "id">): string {
  return user.displayName ?? user.primaryEmail ?? user.id;
}

/** The ways a user can sign in, in words. */
export function signInMethods(user: ServerUser): string[] {
  const methods: string[] = [];
  if (user.hasPassword) methods.push("Password");
  if (user.otpAuthEnabled) methods.push("Email code");
  if (user.passkeyAuthEnabled) methods.push("Passkey");
  for (const provider of user.oauthProviders) methods.push(providerName(provider.id));
  return methods;
}

function providerName(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** The user's picture, or their initial in a circle; decorative (the name is always next to it). */
export function UserAvatar({ user, size = "small" }: { user: Pick<ServerUser, "displayName" | "primaryEmail" | "id" | "profileImageUrl">; size?: "small" | "large" }) {
  const className = `users-avatar users-avatar-${size}`;
  if (user.profileImageUrl) return <img className={className} src={user.profileImageUrl} alt="" />;
  return (
    <span className={className} aria-hidden="true">
      {userName(user).charAt(0).toUpperCase()}
    </span>
  );
}

/** "Verified" / "Not verified" as a small label next to an email. */
export function VerifiedLabel({ verified }: { verified: boolean }) {
  return <span className={verified ? "users-tag users-tag-ok" : "users-tag"}>{verified ? "Verified" : "Not verified"}</span>;
}
