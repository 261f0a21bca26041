/**
 * Runs in Node before the suite: a real SMTP server on loopback that the Worker sends mail to, and a small
 * HTTP mailbox the tests read it from. `GET /messages?to=<address>&count=<n>` waits (up to 5 s) until n
 * messages for that address have arrived, so tests never sleep.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { SMTPServer } from "smtp-server";

interface Message {
  from: string;
  to: string[];
  subject: string;
  headers: Record<string, string>;
  body: string;
}

const messages: Message[] = [];
const waiters = new Set<() => void>();

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_m, _charset, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(raw: string, from: string, to: string[]): Message {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = decodeWords(line.slice(at + 1).trim());
  }
  return { from, to, subject: headers.subject ?? "", headers, body: decodeQuotedPrintable(rest.join("\n\n")) };
}

function matching(to: string): Message[] {
  return messages.filter((m) => m.to.includes(to.toLowerCase()));
}

function serveMailbox(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://mailbox");
  const to = url.searchParams.get("to") ?? "";
  const count = Number(url.searchParams.get("count") ?? 1);
  const reply = () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(matching(to)));
  };
  if (count <= 0 || matching(to).length >= count) return reply();
  const timer = setTimeout(() => {
    waiters.delete(check);
    reply();
  }, 5000);
  const check = () => {
    if (matching(to).length < count) return;
    clearTimeout(timer);
    waiters.delete(check);
    reply();
  };
  waiters.add(check);
}

export default async function setup() {
  const smtpPort = Number(process.env.TEST_SMTP_PORT);
  const mailboxPort = Number(process.env.TEST_MAILBOX_PORT);
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(parse(Buffer.concat(chunks).toString("latin1"), from, to));
        for (const waiter of [...waiters]) waiter();
        callback();
      });
    },
  });
  const mailbox = createServer(serveMailbox);
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => mailbox.listen(mailboxPort, "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await new Promise<void>((resolve) => mailbox.close(() => resolve()));
  };
}
