/**
 * Runs in Node before the suite: a real SMTP server on loopback that the Worker sends mail to, and a small
 * HTTP mailbox the tests read it from. `GET /messages?to=<address>&count=<n>` waits (up to 5 s) until n
 * messages for that address have arrived, so tests never sleep.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import libmime from "libmime";
import libqp from "libqp";
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

function parse(raw: string, from: string, to: string[]): Message {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = libmime.decodeWords(line.slice(at + 1).trim());
  }
  return { from, to, subject: headers.subject ?? "", headers, body: libqp.decode(rest.join("\n\n")).toString("utf8") };
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
