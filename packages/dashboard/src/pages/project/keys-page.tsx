import { ConfigOverrideCard } from "./keys/config-override-card.js";
import { KeySetsCard } from "./keys/key-sets-card.js";
import "./project-config/project-config.css";

/** The project's key sets (create, shown once; list; revoke) and its configuration as JSON. */
export function KeysPage() {
  return (
    <>
      <KeySetsCard />
      <ConfigOverrideCard />
    </>
  );
}
