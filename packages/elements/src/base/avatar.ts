/**
 * The round avatar (image or initials) of users and teams, for the elements that show one. `flex: none`:
 * next to a long name in a flex row it would otherwise be squeezed into an oval; initials never wrap.
 */
export const AVATAR_CSS = `
:where(.lk-avatar){flex:none;width:2rem;height:2rem;border-radius:50%;display:inline-grid;place-items:center;white-space:nowrap;line-height:1;background:var(--lk-primary);color:var(--lk-on-primary);font-size:.85em;overflow:hidden}
:where(.lk-avatar img){width:100%;height:100%;object-fit:cover}
`;
