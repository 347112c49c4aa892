import type { ClientApp } from "@latchkey/core";
import { createContext } from "react";

/** The app an `AuthProvider` gives to the components below it; `null` outside any provider. */
export const AppContext = createContext<ClientApp | null>(null);
AppContext.displayName = "LatchkeyApp";
