/**
 * Finding members by the beginning of their name (docs/operations.md#finding-users-by-name, docs/search.md), through
 * HTTP: `GET /api/users?search=` for a front end's autocomplete, case-insensitive, CJK names, disabled members, its
 * validation and round trip; and the user search of `GET /api/search`, whose last word matches the beginning of a
 * username without a `*`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../src/lib/time";
import { type ApiResponse, get, patch, post } from "./helpers/api";
import { createTopic } from "./helpers/content";
import { createAdmin, createUser, type TestUser } from "./helpers/factories";

const names = (res: ApiResponse) => res.body.data.map((user: { username: string }) => user.username);

async function members(...usernames: string[]): Promise<TestUser[]> {
  const made: TestUser[] = [];
  for (const username of usernames) made.push(await createUser({ username }));
  return made;
}

async function disable(user: TestUser) {
  await env.DB.prepare("UPDATE users SET disable_time = ? WHERE user_id = ?").bind(now(), user.user_id).run();
}

describe("GET /api/users?search=", () => {
  const lookup = (search: string, query: Record<string, string> = {}, token?: string) =>
    get("/api/users", { query: { search, ...query }, token });

  it("finds samwise42 by sam: the beginning of the name, case-insensitively, alphabetically, in one round trip", async () => {
    await members("samwise42", "Samuel", "SAM", "asam", "wisesam", "frodo");

    const res = await lookup("sam");

    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.roundTrips).toBe(1);
    expect(names(res)).toEqual(["SAM", "Samuel", "samwise42"]);
    expect(res.body.pagination).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(names(await lookup("SAMW"))).toEqual(["samwise42"]);
    expect(names(await lookup("samwise42"))).toEqual(["samwise42"]);
    expect(names(await lookup("samwise421"))).toEqual([]);
  });

  it("finds Chinese names by their first characters", async () => {
    await members("李静", "李四", "张李", "lisi");

    expect(names(await lookup("李")).sort()).toEqual(["李四", "李静"].sort());
    expect(names(await lookup("李静"))).toEqual(["李静"]);
    expect(names(await lookup("静"))).toEqual([]);
  });

  it("leaves disabled members out, except for administrators listing only them", async () => {
    const [, hidden] = await members("samwise42", "samhidden");
    await disable(hidden as TestUser);
    const admin = await createAdmin();

    expect(names(await lookup("sam"))).toEqual(["samwise42"]);
    expect(names(await lookup("sam", {}, admin.token))).toEqual(["samwise42"]);
    expect(names(await lookup("sam", { disabled: "true" }, admin.token))).toEqual(["samhidden"]);
    // For anyone else `disabled` is ignored.
    expect(names(await lookup("sam", { disabled: "true" }))).toEqual(["samwise42"]);
  });

  it("pages, takes an order when asked, and combines with the other filters", async () => {
    const [first, second] = await members("samb", "sama", "samc");

    const page = await lookup("sam", { per_page: "2", page: "2" });
    const newest = await lookup("sam", { order: "-create_time" });
    const exact = await lookup("sam", { username: "samb" });

    expect(names(page)).toEqual(["samc"]);
    expect(page.body.pagination).toMatchObject({ total: 3, pages: 2, previous: 1 });
    expect(names(newest)).toEqual(["samc", "sama", "samb"]);
    expect(names(exact)).toEqual(["samb"]);
    expect(first?.user_id).toBeLessThan(second?.user_id ?? 0);
  });

  it("is no filter when empty, and 200001 naming search when longer than a username", async () => {
    await members("samwise42", "frodo");

    const all = await get("/api/users", { query: { search: "" } });
    const blank = await lookup("   ");
    const long = await lookup("s".repeat(21));

    expect(all.body.pagination.total).toBe(2);
    expect(blank.body.pagination.total).toBe(2);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe(200001);
    expect(Object.keys(long.body.errors)).toEqual(["search"]);
  });

  it("reads a text that is no name's beginning as such, without matching anything else", async () => {
    await members("samwise42");

    for (const search of ["%", "sam%", "_am", "s*", "'sam'", "\u{10FFFF}"]) {
      const res = await lookup(search);
      expect(res.status, search).toBe(200);
      expect(names(res), search).toEqual([]);
    }
  });
});

describe("GET /api/search?type=user", () => {
  /** Members whose search documents are written, as a profile edit writes them. */
  async function indexed(...usernames: string[]): Promise<TestUser[]> {
    const made = await members(...usernames);
    for (const [i, user] of made.entries()) {
      const res = await patch("/api/user", {
        token: user.token,
        body: { bio: i === 0 ? "I love the same old songs" : "" },
      });
      expect(res.status).toBe(200);
    }
    return made;
  }

  const search = (q: string, type = "user") => get("/api/search", { query: { q, type } });
  const ids = (res: ApiResponse) => res.body.data.map((user: { user_id: number }) => user.user_id);

  it("finds samwise42 by sam: the last word is the beginning of a name, without a *", async () => {
    const [samwise, frodo] = await indexed("samwise42", "frodo");

    const res = await search("sam");

    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect(ids(res)).toContain(samwise?.user_id);
    expect(ids(res)).not.toContain(frodo?.user_id);
    expect(res.body.data.find((u: { user_id: number }) => u.user_id === samwise?.user_id).relationships.highlight).toBe(
      "<mark>samwise42</mark>",
    );
    expect(ids(await search("samwise"))).toEqual([samwise?.user_id]);
    expect(ids(await search("SAMWISE42"))).toEqual([samwise?.user_id]);
  });

  it("keeps quoted phrases exact, and other kinds' searches to whole words", async () => {
    const [samwise] = await indexed("samwise42");
    const admin = await createAdmin();
    const topic = await createTopic();
    const question = await post("/api/questions", {
      token: admin.token,
      body: { title: "About samwise42", content_markdown: "Who is samwise42?", topic_ids: [topic] },
    });
    expect(question.status).toBe(200);
    const questions = async (q: string) =>
      (await search(q, "question")).body.data.map((record: { question_id: number }) => record.question_id);

    expect(ids(await search('"sam"'))).not.toContain(samwise?.user_id);
    expect(ids(await search("sam*"))).toEqual([samwise?.user_id]);
    expect(await questions("sam")).toEqual([]);
    expect(await questions("samwise42")).toEqual([question.body.data.question_id]);
  });

  it("finds Chinese names by their first characters, and by their characters anywhere", async () => {
    const [jing, si] = await indexed("李静", "李四");

    expect(ids(await search("李")).sort()).toEqual([jing?.user_id, si?.user_id].sort());
    expect(ids(await search("李静"))).toEqual([jing?.user_id]);
    expect(ids(await search("静"))).toEqual([jing?.user_id]);
  });

  it("leaves disabled members out", async () => {
    const [samwise, hidden] = await indexed("samwise42", "samhidden");
    await disable(hidden as TestUser);

    expect(ids(await search("sam"))).toEqual([samwise?.user_id]);
  });
});
