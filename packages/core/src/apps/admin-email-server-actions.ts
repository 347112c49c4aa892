import type { SentEmailRead } from "@latchkey/protocol/schemas";
import { sentEmailFromWire, testEmailServerToWire, type SentEmail, type TestEmailResult, type TestEmailServer } from "../wire/sent-emails.js";
import type { AppContext } from "./app-context.js";

/**
 * An admin app's email server and sent log: try an SMTP server with a test mail before saving it into the
 * project's config (`updateAdminProject`), and read what the project sent, with each delivery's error.
 */
export function adminEmailServerActions(ctx: AppContext) {
  return {
    /**
     * Sends a test mail to `recipientEmail` through `server`. An SMTP failure is not thrown: it is answered
     * as `success: false` with the server's error text, for the admin to read.
     */
    async sendTestEmail(recipientEmail: string, server: TestEmailServer): Promise<TestEmailResult> {
      const wire = await ctx.call<{ success: boolean; error_message?: string }>({
        method: "POST",
        path: "/internal/send-test-email",
        body: { recipient_email: recipientEmail, email_config: testEmailServerToWire(server) },
        session: null,
      });
      return wire.success ? { success: true } : { success: false, errorMessage: wire.error_message ?? "The test email could not be sent." };
    },

    /** The project's sent mail, newest first, failed deliveries with their error. */
    async listSentEmails(): Promise<SentEmail[]> {
      const { items } = await ctx.call<{ items: SentEmailRead[] }>({ method: "GET", path: "/internal/emails", session: null });
      return items.map(sentEmailFromWire);
    },
  };
}
