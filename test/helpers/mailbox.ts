/** Reads the mails the local SMTP server (test/global-setup.ts) received for an address. */
import { env } from "cloudflare:workers";

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  headers: Record<string, string>;
  body: string;
}

/** Waits (server side, at most 5 s) until `count` mails for `to` have arrived, and returns them all. */
export async function mailsTo(to: string, count = 1): Promise<Mail[]> {
  const res = await fetch(`${env.TEST_MAILBOX_URL}/messages?to=${encodeURIComponent(to)}&count=${count}`);
  return res.json();
}

/** Only the mails already received, without waiting. */
export const mailsSoFar = (to: string) => mailsTo(to, 0);

/** The 6-character code in the newest mail to `to`. */
export async function codeFromMail(to: string, count = 1): Promise<string> {
  const mails = await mailsTo(to, count);
  const body = mails.at(-1)?.body ?? "";
  const match =
    /\b([a-z0-9]{6})\b(?=<\/strong>|<\/b>|<\/code>)/.exec(body) ?? /code[^a-z0-9]*([a-z0-9]{6})\b/i.exec(body);
  if (!match?.[1]) throw new Error(`no code in mail to ${to}: ${body.slice(0, 200)}`);
  return match[1];
}
