/** Display names of the OAuth providers the protocol knows; unknown ids are shown capitalised. */
const NAMES: Record<string, string> = {
  github: "GitHub",
  gitlab: "GitLab",
  google: "Google",
  microsoft: "Microsoft",
  facebook: "Facebook",
  discord: "Discord",
  spotify: "Spotify",
  apple: "Apple",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  x: "X",
  twitch: "Twitch",
};

export function providerName(id: string): string {
  return NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}
