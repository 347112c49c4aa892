/**
 * What `latchkey-account.js` (account-elements.ts) takes from the drop-in bundle that loaded it instead of
 * bringing its own copy: one Lit, one app registry, one language (msg), one stylesheet, the same KnownError
 * class. The bundle puts this module's exports on the page (account-elements-loader.ts); the chunk's imports
 * of these modules read them from there (vite.config.ts). The build fails when the chunk imports a name
 * that is not listed here or would bundle a module the main bundle has too.
 * One `export { … } from "…"` per module: the build reads these lines.
 */
export { html, nothing, render } from "lit-html";
export { unsafeSVG } from "lit-html/directives/unsafe-svg.js";
export { KnownError, paymentsOf, registerPasskey } from "@latchkey/core";
export { AuthElement } from "./base/auth-element.js";
export { getLocale, msg, str } from "./base/i18n.js";
export { describeError } from "./base/errors.js";
export { field, focusError, formError, formValues, showPassword, submit } from "./base/forms.js";
export { providerIcon, providerName } from "./base/provider-names.js";
export { projectGate } from "./base/project-gate.js";
export { pageParam } from "./base/navigation.js";
export { checkNewPassword, passwordRules, passwordRulesCss, rulesId, typedPasswords } from "./base/password-rules.js";
export { AVATAR_CSS } from "./base/avatar.js";
export { absoluteDate, absoluteTime, accountCss, keepFocusIn, relativeTime, signedInGate, userIdOf } from "./elements/account/account-common.js";
export { teamAvatar } from "./elements/teams/team-avatar.js";
