/** The round avatar (image or initials) of users and teams, for the elements that show one. */
export const AVATAR_CSS = `
:where(.lk-avatar){width:2rem;height:2rem;border-radius:50%;display:inline-grid;place-items:center;background:var(--lk-primary);color:var(--lk-on-primary);font-size:.85em;overflow:hidden}
:where(.lk-avatar img){width:100%;height:100%;object-fit:cover}
`;
