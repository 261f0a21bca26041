/**
 * Outgoing mail over SMTP from the Worker (TCP sockets, `worker-mailer`) with the site's `smtp_*` settings
 * (docs/stats-captcha-mail.md#transport), and the account mails built on it. With no `smtp_host` mail cannot go
 * out, and the flows that need it say so (MAIL_NOT_CONFIGURED); only a development server (`MAIL_TO_LOG=true`)
 * writes mails to the log, since a mail's codes reset accounts and logs are read by more people than mailboxes.
 */
import { LogLevel, WorkerMailer, type WorkerMailerOptions } from "worker-mailer";
import { ApiError } from "../core/errors";

/** What mails need from the site settings (domain/site-options.ts), which satisfy it as they are. */
export interface MailOptions {
  /** Whether a mail goes to the log when no `smtp_host` is set (MAIL_TO_LOG, development only). */
  mail_to_log?: boolean;
  site_name: string;
  smtp_host: string;
  smtp_port: number;
  smtp_secure: "ssl" | "tls" | "";
  smtp_username: string;
  smtp_password: string;
  smtp_reply_to: string;
}

export interface MailContent {
  subject: string;
  html: string;
}

export interface MailMessage extends MailContent {
  to: string | string[];
}

// Strict enough that an address can go into an SMTP command or a header as is: no spaces, brackets or quotes.
const ADDRESS = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\.]+(\.[^\s@<>()[\],;:"\\.]+)+$/;

/** An e-mail address as accounts accept it (at most 320 characters). */
export const isEmailAddress = (value: string): boolean => value.length <= 320 && ADDRESS.test(value);

/**
 * Two fixes to worker-mailer 1.2.1 (pinned), in its private step that runs after the optional STARTTLS: it
 * refuses to go on when the server advertises AUTH and no credentials are given, but relays often advertise
 * AUTH and still accept mail from trusted hosts, and the settings say AUTH only when `smtp_username` is set;
 * and when STARTTLS was asked for but is not offered it carries on in plain text, password and all.
 * test/mail.test.ts covers both against a server that advertises AUTH and no STARTTLS, so an upgrade that
 * renames the step fails there.
 */
interface MailerSession {
  credentials?: unknown;
  secure: boolean;
  startTls: boolean;
  supportsStartTls: boolean;
}
const mailerPrototype = WorkerMailer.prototype as unknown as { auth(this: MailerSession): Promise<void> };
const libraryAuth = mailerPrototype.auth;
mailerPrototype.auth = async function auth() {
  if (this.startTls && !this.secure && !this.supportsStartTls)
    throw new Error("the SMTP server does not offer STARTTLS");
  if (this.credentials) await libraryAuth.call(this);
};

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] as string);

/** Header text: a line break would start a new header. */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, " ").trim();

/** A display name also loses what would end its quoted string. */
const displayName = (text: string): string => text.replace(/["\\\r\n]+/g, " ").trim();

/** The envelope and header sender: the SMTP account when it is an address, else the reply-to, else no-reply@host. */
export function senderAddress(options: MailOptions, host: string): string {
  if (isEmailAddress(options.smtp_username)) return options.smtp_username;
  if (isEmailAddress(options.smtp_reply_to)) return options.smtp_reply_to;
  return `no-reply@${host}`;
}

export function transportOptions(options: MailOptions): WorkerMailerOptions {
  return {
    host: options.smtp_host,
    port: options.smtp_port,
    // 'ssl' is TLS from the first byte; 'tls' upgrades a plain connection with STARTTLS.
    secure: options.smtp_secure === "ssl",
    startTls: options.smtp_secure === "tls",
    ...(options.smtp_username && {
      credentials: { username: options.smtp_username, password: options.smtp_password },
      authType: ["plain", "login", "cram-md5"],
    }),
    // worker-mailer also uses this as the per-reply timeout.
    socketTimeoutMs: 10_000,
    logLevel: LogLevel.NONE,
  };
}

export type SendOne = (message: MailMessage) => Promise<void>;

/** Whether mail can leave: over SMTP, or to the log on a development server. */
export const mailConfigured = (options: MailOptions): boolean => Boolean(options.smtp_host || options.mail_to_log);

const ADDRESSES = /[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+/g;

/** An SMTP failure as a log may keep it: servers name the addresses they refuse, and no address is logged. */
const redactAddresses = (text: string): string => text.replace(ADDRESSES, "[address]");

/** A failed send as a log line may hold it: the reason, with every address taken out. */
export function mailFailure(error: unknown): string {
  const reason =
    error instanceof ApiError ? error.extra?.extra_message : error instanceof Error ? error.message : error;
  return redactAddresses(String(reason ?? error));
}

/**
 * Runs `use` with a sender over ONE SMTP connection, closed afterwards whatever happened (worker-mailer
 * leaves the socket open when sending fails). Mass mail sends many messages this way instead of opening a
 * connection (a Worker subrequest) per recipient. A failure is EMAIL_SEND_FAILED (200002) with the server's
 * or the socket's message in `extra_message`. With no `smtp_host`, MAIL_NOT_CONFIGURED, or the log on a development
 * server.
 */
export async function withMailer<T>(
  options: MailOptions,
  host: string,
  use: (send: SendOne) => Promise<T>,
): Promise<T> {
  const from = { name: displayName(options.site_name), email: senderAddress(options, host) };
  const envelope = (message: MailMessage) => ({
    from,
    to: message.to,
    subject: oneLine(message.subject),
    html: message.html,
    ...(isEmailAddress(options.smtp_reply_to) && { reply: options.smtp_reply_to }),
  });
  if (!mailConfigured(options)) throw new ApiError("MAIL_NOT_CONFIGURED");
  if (!options.smtp_host) {
    return use(async (message) => {
      console.log(
        `mail (no smtp_host set) to ${[message.to].flat().join(", ")}: ${oneLine(message.subject)}\n${message.html}`,
      );
    });
  }
  const failed = (error: unknown) =>
    error instanceof ApiError
      ? error
      : new ApiError("EMAIL_SEND_FAILED", {
          extra: { extra_message: error instanceof Error ? error.message : String(error) },
        });
  // Connected on the first message, so a connection failure is that message's failure.
  let mailer: WorkerMailer | undefined;
  try {
    return await use(async (message) => {
      try {
        mailer ??= await WorkerMailer.connect(transportOptions(options));
        await mailer.send(envelope(message));
      } catch (error) {
        throw failed(error);
      }
    });
  } finally {
    await mailer?.close();
  }
}

/** Sends one message (every address in `to` sees the others). */
export function sendMail(options: MailOptions, host: string, message: MailMessage): Promise<void> {
  return withMailer(options, host, (send) => send(message));
}

/**
 * Sends one message after the answer (`waitUntil`), never failing the request: a failure is logged under `label`,
 * with addresses taken out (docs/stats-captcha-mail.md#transport).
 */
export function sendMailAfter(
  waitUntil: (work: Promise<unknown>) => void,
  options: MailOptions,
  host: string,
  message: MailMessage,
  label: string,
): void {
  waitUntil(sendMail(options, host, message).catch((error) => console.error(`${label} failed:`, mailFailure(error))));
}

/** A minimal HTML document around a body (already escaped). */
function layout(siteName: string, body: string): string {
  return (
    `<!DOCTYPE html><html><body style="font-family:sans-serif;line-height:1.5">${body}` +
    `<p style="color:#888">${escapeHtml(siteName)}</p></body></html>`
  );
}

/**
 * A mail carrying a one-hour code for `purpose`; the code goes inside <strong> so it stands out (and tests can find
 * it).
 */
function codeMail(siteName: string, code: string, subject: string, purpose: string, ignoring = ""): MailContent {
  return {
    subject,
    html: layout(
      siteName,
      `<p>Use this code to ${purpose} on ${escapeHtml(siteName)}. It is valid for one hour.</p>` +
        `<p style="font-size:20px">Your code: <strong>${escapeHtml(code)}</strong></p>` +
        `<p>If you did not ask for it, ignore this mail${ignoring}.</p>`,
    ),
  };
}

export function registerCodeMail(siteName: string, code: string): MailContent {
  return codeMail(siteName, code, `Your sign-up code for ${siteName}`, "finish creating your account");
}

export function passwordResetCodeMail(siteName: string, code: string): MailContent {
  return codeMail(
    siteName,
    code,
    `Your password reset code for ${siteName}`,
    "set a new password",
    ": your password stays as it is",
  );
}

export function welcomeMail(siteName: string, username: string): MailContent {
  return {
    subject: `Welcome to ${siteName}`,
    html: layout(
      siteName,
      `<p>Hello ${escapeHtml(username)},</p><p>welcome to ${escapeHtml(siteName)}! ` +
        "Your account is ready: you can sign in now.</p>",
    ),
  };
}

/**
 * A new private message in a conversation the receiver has not read (docs/messages.md#mail). It names the sender only:
 * the text stays in the inbox, out of mail servers and of the log a mail goes to without `smtp_host`.
 */
export function newMessageMail(siteName: string, username: string, senderName: string): MailContent {
  return {
    subject: `${senderName} sent you a private message on ${siteName}`,
    html: layout(
      siteName,
      `<p>Hello ${escapeHtml(username)},</p><p>${escapeHtml(senderName)} sent you a private message on ` +
        `${escapeHtml(siteName)}. Sign in to read it.</p>` +
        "<p>You get one such mail per conversation until you read it; " +
        "you can turn these mails off in your settings.</p>",
    ),
  };
}
