/** Errors about e-mail templates, rendering and the e-mail server. */
import { defineKnownError } from "./known-error.js";

export const EmailTemplateAlreadyExists = defineKnownError("EMAIL_TEMPLATE_ALREADY_EXISTS", {
  status: 409,
  build: () => ({ message: "Email template already exists." }),
  fromDetails: () => [],
});

export const EmailRenderingError = defineKnownError("EMAIL_RENDERING_ERROR", {
  status: 400,
  build: (error: string) => ({ message: `Failed to render email with theme: ${error}`, details: { error } }),
  fromDetails: (d) => [d?.error],
});

export const RequiresCustomEmailServer = defineKnownError("REQUIRES_CUSTOM_EMAIL_SERVER", {
  status: 400,
  build: () => ({
    message: "This action requires a custom SMTP server. Please edit your email server configuration and try again.",
  }),
  fromDetails: () => [],
});
