import { emailConfigToWire, type AdminApp, type AdminProject, type TestEmailServer } from "@latchkey/core";
import { useUser } from "@latchkey/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { emailAddress } from "@latchkey/protocol/schemas";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { adminProjectKey } from "../../../project-admin.js";
import { SectionIntro } from "./email-item-list.js";
import { emailServerInput, formErrors, smtpServerForm, type EmailServerInput } from "./email-server-form.js";

/** Where the project's mail goes out: Latchkey's shared sender, or the project's own SMTP server, with a test send. */
export function EmailServerSection({ admin, projectId }: { admin: AdminApp; projectId: string }) {
  // Read afresh on every visit: the form starts from what is saved now, not from what another page loaded earlier.
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject(), refetchOnMount: "always" });
  return (
    <>
      <SectionIntro title="Email server">
        The shared server sends Latchkey's own emails (verification, password reset, sign-in codes). To send drafts and your own templates, and to
        send from your own address, use your own SMTP server.
      </SectionIntro>
      {project.isFetchedAfterMount || project.isError ? (
        <QueryState query={project} what="the email server settings">
          {(loaded) => <EmailServerForm admin={admin} projectId={projectId} project={loaded} />}
        </QueryState>
      ) : (
        <p role="status">Loading the email server settings…</p>
      )}
    </>
  );
}

const FIELDS = [
  { name: "host", label: "SMTP host", type: "text", autoComplete: "off" },
  { name: "port", label: "Port", type: "text", autoComplete: "off", inputMode: "numeric" },
  { name: "username", label: "User name", type: "text", autoComplete: "off" },
  { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
  { name: "senderName", label: "Sender name", type: "text", autoComplete: "off" },
  { name: "senderEmail", label: "Sender email", type: "email", autoComplete: "off" },
] as const;

function EmailServerForm({ admin, projectId, project }: { admin: AdminApp; projectId: string; project: AdminProject }) {
  const id = useId();
  const queryClient = useQueryClient();
  const savedPassword = project.config.email_config.password;
  const [input, setInput] = useState<EmailServerInput>(() => emailServerInput(project.config.email_config));
  const [errors, setErrors] = useState<ReturnType<typeof formErrors>>({});
  const save = useMutation({
    mutationFn: (server: TestEmailServer | null) => admin.updateAdminProject({ config: { email_config: emailConfigToWire(server) } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(adminProjectKey(projectId), updated);
      setInput((current) => ({ ...current, password: "" }));
    },
  });

  /** The own server as typed, checked; null (with the problems shown) when something is missing. */
  function checkedServer(): TestEmailServer | null {
    const parsed = smtpServerForm(savedPassword).safeParse(input);
    setErrors(parsed.success ? {} : formErrors(parsed.error));
    return parsed.success ? parsed.data : null;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    if (input.type === "shared") return save.mutate(null);
    const server = checkedServer();
    if (server) save.mutate(server);
  }

  const hint = (name: keyof EmailServerInput) =>
    name === "password" && savedPassword ? "A password is saved; leave this empty to keep it." : name === "port" ? "Usually 587 (STARTTLS) or 465 (TLS)." : undefined;

  return (
    <>
      <form className="dashboard-form" onSubmit={submit} noValidate>
        <fieldset className="emails-choice">
          <legend>Send emails through</legend>
          <label>
            <input type="radio" name={`${id}-type`} checked={input.type === "shared"} onChange={() => setInput({ ...input, type: "shared" })} /> Latchkey's
            shared server
          </label>
          <label>
            <input type="radio" name={`${id}-type`} checked={input.type === "standard"} onChange={() => setInput({ ...input, type: "standard" })} /> Your own
            SMTP server
          </label>
        </fieldset>
        {input.type === "standard"
          ? FIELDS.map((field) => {
              const error = errors[field.name];
              const note = error ?? hint(field.name);
              return (
                <div className="dashboard-field" key={field.name}>
                  <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
                  <input
                    id={`${id}-${field.name}`}
                    type={field.type}
                    autoComplete={field.autoComplete}
                    inputMode={"inputMode" in field ? field.inputMode : undefined}
                    value={input[field.name]}
                    onChange={(event) => setInput({ ...input, [field.name]: event.target.value })}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={note ? `${id}-${field.name}-note` : undefined}
                  />
                  {note ? (
                    <span id={`${id}-${field.name}-note`} className={error ? "dashboard-error" : "dashboard-muted"}>
                      {note}
                    </span>
                  ) : null}
                </div>
              );
            })
          : null}
        <FailureAlert action="save the email server" error={save.error} />
        {save.isSuccess ? <p role="status">The email server settings are saved.</p> : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save email server"}
        </button>
      </form>
      {input.type === "standard" ? <TestEmailForm admin={admin} server={checkedServer} /> : null}
    </>
  );
}

const recipientForm = z.string().trim().refine((value) => emailAddress.safeParse(value).success, "Give the address to send the test email to.");

/** Sends a test mail through the server as typed in the form (saved or not), and says whether it went out or what SMTP answered. */
function TestEmailForm({ admin, server }: { admin: AdminApp; server: () => TestEmailServer | null }) {
  const id = useId();
  const user = useUser();
  const [recipient, setRecipient] = useState(user?.primaryEmail ?? "");
  const [error, setError] = useState<string | null>(null);
  const test = useMutation({ mutationFn: ({ to, config }: { to: string; config: TestEmailServer }) => admin.sendTestEmail(to, config) });

  function submit(event: FormEvent) {
    event.preventDefault();
    test.reset();
    const to = recipientForm.safeParse(recipient);
    setError(to.success ? null : to.error.issues[0]!.message);
    const config = server();
    if (to.success && config) test.mutate({ to: to.data, config });
  }

  return (
    <form className="dashboard-form emails-test-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Send a test email</h3>
      <p className="dashboard-muted">Tries the server above as it is filled in, before or after you save it.</p>
      <div className="dashboard-field">
        <label htmlFor={`${id}-to`}>Send the test email to</label>
        <input
          id={`${id}-to`}
          type="email"
          value={recipient}
          onChange={(event) => setRecipient(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-to-error` : undefined}
        />
        {error ? (
          <span id={`${id}-to-error`} className="dashboard-error">
            {error}
          </span>
        ) : null}
      </div>
      <div aria-live="polite">
        {test.data?.success ? <p>The test email was sent. Check the inbox of {test.variables?.to}.</p> : null}
        {test.data && !test.data.success ? (
          <div className="dashboard-error">
            <p>The SMTP server did not take the test email:</p>
            <pre className="dashboard-code emails-pre">{test.data.errorMessage}</pre>
          </div>
        ) : null}
        {test.isError ? <p className="dashboard-error">Could not send the test email: {test.error.message}</p> : null}
      </div>
      <button type="submit" className="dashboard-secondary" disabled={test.isPending}>
        {test.isPending ? "Sending…" : "Send test email"}
      </button>
    </form>
  );
}
