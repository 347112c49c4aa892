import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

export interface CapturedEmail {
  to: string[];
  from: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** The credentials the client logged in with, if it did. */
  auth: { username: string; password: string } | undefined;
  parsed: ParsedMail;
}

export interface SmtpCapture {
  host: string;
  port: number;
  messages: CapturedEmail[];
  /** The next message for `address` not yet returned, waiting for it when it has not arrived. */
  nextMessage(address: string, timeoutMs?: number): Promise<CapturedEmail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (a free port), for tests: plain SMTP without STARTTLS, any login
 * accepted (or every login refused with `rejectAuth`), every message parsed with mailparser. With
 * `replyDelayMs`, each message is acknowledged that long after it arrived, as a mail server across a network
 * answers (a remote conversation takes a few hundred ms; one on loopback a few).
 */
export async function startSmtpCapture(options: { rejectAuth?: boolean; replyDelayMs?: number } = {}): Promise<SmtpCapture> {
  const messages: CapturedEmail[] = [];
  const returned = new Set<CapturedEmail>();
  const waiters: { address: string; resolve: (m: CapturedEmail) => void }[] = [];
  const matches = (m: CapturedEmail, address: string) => m.to.includes(address.toLowerCase());

  const server = new SMTPServer({
    secure: false,
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, session, callback) {
      if (options.rejectAuth) return callback(new Error("Invalid username or password"));
      callback(null, { user: { username: auth.username ?? "", password: auth.password ?? "" } });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          const fromValue = parsed.from?.value[0];
          const message: CapturedEmail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: { name: fromValue?.name ?? "", address: fromValue?.address ?? "" },
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            auth: session.user as CapturedEmail["auth"],
            parsed,
          };
          if (options.replyDelayMs) await new Promise((resolve) => setTimeout(resolve, options.replyDelayMs));
          messages.push(message);
          const waiter = waiters.find((w) => matches(message, w.address));
          if (waiter) {
            waiters.splice(waiters.indexOf(waiter), 1);
            returned.add(message);
            waiter.resolve(message);
          }
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    host: "127.0.0.1",
    port,
    messages,
    nextMessage(address, timeoutMs = 10_000) {
      const waiting = messages.find((m) => !returned.has(m) && matches(m, address));
      if (waiting) {
        returned.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no email to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = { address, resolve: (m: CapturedEmail) => (clearTimeout(timer), resolve(m)) };
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
