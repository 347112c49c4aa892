import type { AdminApp, EmailDraft } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { emailKeys } from "./email-queries.js";

type Recipients = { allUsers: true } | { userIds: string[] };

/** User ids as a person pastes them: one a line, or separated by commas or spaces. */
const userIdsForm = z
  .string()
  .transform((text) => [...new Set(text.split(/[\s,]+/).filter(Boolean))])
  .pipe(z.array(z.uuid({ message: "User ids look like 3f2b8c1e-…: one of these is not a user id." })).min(1, "Name at least one user id."));

/**
 * Sends the saved draft to every user of the project or to the users named by id (`send-email` with the
 * draft), after a confirmation; the server then marks the draft sent. It needs the project's own email server.
 */
export function SendDraftForm({ admin, projectId, draft, unsaved }: { admin: AdminApp; projectId: string; draft: EmailDraft; unsaved: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [audience, setAudience] = useState<"all" | "chosen">("chosen");
  const [userIdsText, setUserIdsText] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Recipients | null>(null);
  const send = useMutation({
    mutationFn: (recipients: Recipients) => admin.sendEmail({ draftId: draft.id, ...recipients }),
    onSuccess: async () => {
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: emailKeys.drafts(projectId) });
      await queryClient.invalidateQueries({ queryKey: emailKeys.sent(projectId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (audience === "all") {
      setInputError(null);
      return setConfirming({ allUsers: true });
    }
    const parsed = userIdsForm.safeParse(userIdsText);
    setInputError(parsed.success ? null : parsed.error.issues[0]!.message);
    if (parsed.success) setConfirming({ userIds: parsed.data });
  }

  const who = confirming === null ? "" : "allUsers" in confirming ? "every user of the project" : confirming.userIds.length === 1 ? "1 user" : `${confirming.userIds.length} users`;
  return (
    <section className="emails-send" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Send this draft</h3>
      {draft.sentAt ? <p>This draft was sent on {draft.sentAt.toLocaleString()}.</p> : null}
      {unsaved ? <p className="dashboard-muted">The saved version is sent: save your changes first.</p> : null}
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <fieldset className="emails-choice">
          <legend>Send to</legend>
          <label>
            <input type="radio" name={`${id}-audience`} checked={audience === "chosen"} onChange={() => setAudience("chosen")} /> Chosen users
          </label>
          <label>
            <input type="radio" name={`${id}-audience`} checked={audience === "all"} onChange={() => setAudience("all")} /> All users
          </label>
        </fieldset>
        {audience === "chosen" ? (
          <div className="dashboard-field">
            <label htmlFor={`${id}-users`}>User ids</label>
            <textarea
              id={`${id}-users`}
              rows={3}
              value={userIdsText}
              onChange={(event) => setUserIdsText(event.target.value)}
              aria-invalid={inputError ? true : undefined}
              aria-describedby={`${id}-users-hint`}
            />
            <span id={`${id}-users-hint`} className={inputError ? "dashboard-error" : "dashboard-muted"}>
              {inputError ?? "One a line, or separated by commas. The Users page shows each user's id."}
            </span>
          </div>
        ) : null}
        {send.isSuccess ? (
          <p role="status">
            Sent to {send.data.length === 1 ? "1 user" : `${send.data.length} users`}
            {send.data.some((result) => !result.userEmail) ? "; users without an email address were skipped" : ""}. The sent log shows each delivery.
          </p>
        ) : null}
        {send.isError && confirming === null ? (
          <p role="alert" className="dashboard-error">
            Could not send the draft: {send.error.message}
          </p>
        ) : null}
        <button type="submit" disabled={unsaved || send.isPending}>
          {draft.sentAt ? "Send again" : "Send draft"}
        </button>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={`Send “${draft.displayName}” to ${who}?`}
        confirmLabel="Send"
        busy={send.isPending}
        error={send.isError ? send.error.message : null}
        onConfirm={() => confirming && send.mutate(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <p>Emails cannot be called back once they are sent.</p>
      </ConfirmDialog>
    </section>
  );
}
