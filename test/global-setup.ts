/**
 * Runs in Node before the suite: a real SMTP server on loopback that the Worker sends mail to, a small HTTP
 * mailbox the tests read it from, and a webhook receiver. `GET /messages?to=<address>&count=<n>` waits (up to 5 s) until n
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

/**
 * A webhook receiver on loopback (docs/events.md#webhooks): `POST /hooks/<name>` is answered with the next status of
 * the name's script (`PUT /scripts/<name>` with a JSON list; the last one repeats; 200 without one) and recorded;
 * `GET /received/<name>?count=<n>` waits (up to 5 s) for n requests and answers them all, headers and body as sent.
 */
interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}
const received = new Map<string, Received[]>();
const scripts = new Map<string, number[]>();
const hookWaiters = new Set<() => void>();

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

async function serveHooks(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://receiver");
  const [, kind, name = ""] = url.pathname.split("/");
  const body = await readAll(req);
  if (kind === "scripts") {
    scripts.set(name, JSON.parse(body));
    res.writeHead(204).end();
  } else if (kind === "hooks") {
    const script = scripts.get(name) ?? [200];
    const status = script.length > 1 ? (script.shift() as number) : (script[0] as number);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)]));
    received.set(name, [...(received.get(name) ?? []), { headers, body, status }]);
    for (const waiter of [...hookWaiters]) waiter();
    res.writeHead(status, status >= 300 && status < 400 ? { location: "http://127.0.0.1/elsewhere" } : {}).end();
  } else {
    const count = Number(url.searchParams.get("count") ?? 1);
    const reply = () => {
      hookWaiters.delete(check);
      clearTimeout(timer);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(name) ?? []));
    };
    const check = () => {
      if ((received.get(name)?.length ?? 0) >= count) reply();
    };
    const timer = setTimeout(reply, 5000);
    hookWaiters.add(check);
    check();
  }
}

export default async function setup() {
  const smtpPort = Number(process.env.TEST_SMTP_PORT);
  const mailboxPort = Number(process.env.TEST_MAILBOX_PORT);
  const hooksPort = Number(process.env.TEST_WEBHOOK_PORT);
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
  const hooks = createServer((req, res) => void serveHooks(req, res));
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => mailbox.listen(mailboxPort, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => hooks.listen(hooksPort, "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await new Promise<void>((resolve) => mailbox.close(() => resolve()));
    await new Promise<void>((resolve) => hooks.close(() => resolve()));
  };
}
