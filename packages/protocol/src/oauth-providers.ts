/**
 * The OAuth provider types' names as people know them, by the protocol's provider id: for the widgets'
 * "Continue with …" buttons, the development provider's page and the dashboard. A module of its own, without
 * zod, so the widgets' bundle takes only these strings.
 */
export const OAUTH_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  google: "Google",
  github: "GitHub",
  microsoft: "Microsoft",
  facebook: "Facebook",
  spotify: "Spotify",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
  twitch: "Twitch",
};
