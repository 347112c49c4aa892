import { ConfigDocumentCard } from "./config/config-document-card.js";
import { ConfigOverrideCard } from "./keys/config-override-card.js";
import "./project-config/project-config.css";

/**
 * The project's configuration as a document (issue 33): the whole rendered config in a JSON editor, and a raw
 * override (dotted keys, `null` removes) for changes easier to write than to find. Both go through
 * `/internal/config`, with the server's messages shown where the owner typed.
 */
export function ConfigPage() {
  return (
    <>
      <ConfigDocumentCard />
      <ConfigOverrideCard />
    </>
  );
}
