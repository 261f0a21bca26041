/**
 * A local server with what live updates need (bench/live.ts, test/browser/live.ts): `wrangler dev` as `npm run dev`
 * runs it (its own state and loopback port; the write limits dropped, as for every benchmark), a topic, two members
 * (an asker with a question, an answerer), both logged in. Members are inserted with SQL: registration needs a mailed
 * code.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, login } from "./api";
import { passwordHash } from "./seed";
import { BENCH_VARS, executeSql, migrate, projectConfig, runDirectory, type Server, startServer } from "./wrangler";

export interface Member {
  token: string;
  userId: number;
  username: string;
}

export interface LiveWorld {
  server: Server;
  asker: Member;
  answerer: Member;
  question: number;
}

const PASSWORD = "live-member-password";

export async function liveWorld(name: string, options: { port?: number } = {}): Promise<LiveWorld> {
  const dir = runDirectory();
  const config = projectConfig(join(dir, "config"));
  const persist = join(dir, "state");
  const log = join(dir, `${name}.log`);
  migrate(config, persist, log);
  const time = Math.floor(Date.now() / 1000);
  const hash = passwordHash(PASSWORD, BENCH_VARS.PASSWORD_PEPPER);
  const member = (username: string) =>
    `INSERT INTO users (username, email, password, create_time, update_time) ` +
    `VALUES ('${username}', '${username}@live.example', '${hash}', ${time}, ${time});`;
  const sql = join(dir, "members.sql");
  writeFileSync(
    sql,
    [member("asker"), member("answerer"), "INSERT INTO topics (name, description) VALUES ('Live', 'updates');"].join(
      "\n",
    ),
  );
  executeSql(config, persist, sql, log);
  const server = await startServer(name, config, persist, log, { vars: BENCH_VARS, port: options.port });
  const asker = { ...(await login(server.origin, "asker", PASSWORD)), username: "asker" };
  const answerer = { ...(await login(server.origin, "answerer", PASSWORD)), username: "answerer" };
  const body = { title: "What changes live?", content_markdown: "Tell me when someone answers.", topic_ids: [1] };
  const question = (await api<{ question_id: number }>(server.origin, "POST", "/api/questions", asker.token, body))
    .question_id;
  return { server, asker, answerer, question };
}

/** A single-use ticket for a member's socket. */
export async function ticket(origin: string, token: string): Promise<string> {
  return (await api<{ ticket: string }>(origin, "POST", "/api/live/tickets", token)).ticket;
}
