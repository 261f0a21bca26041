/**
 * Conditional GETs: every successful GET under /api answers an `ETag` (the SHA-1 of its body), and a request that
 * sends it back in `If-None-Match` gets a 304 with no body, which still carries the headers the 200 would have had
 * for the browser (CORS, Cache-Control) and the round-trip count.
 */
import { describe, expect, it } from "vitest";
import { call, get } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createAdmin, createUser } from "./helpers/factories";

const QUOTED_SHA1 = /^"[0-9a-f]{40}"$/;

describe("ETag and If-None-Match on GET /api/*", () => {
  it("tags a record, answers 304 with no body while it is unchanged, and a new tag once it changes", async () => {
    const author = await createUser();
    const id = await createQuestion(author.user_id, { title: "The first title" });
    const first = await get(`/api/questions/${id}`);
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag");
    expect(tag).toMatch(QUOTED_SHA1);
    expect((await get(`/api/questions/${id}`)).headers.get("etag")).toBe(tag);

    const again = await get(`/api/questions/${id}`, { headers: { "if-none-match": tag as string } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(again.headers.get("server-timing")).toMatch(/round trips/);

    const admin = await createAdmin();
    const edit = await call("PATCH", `/api/questions/${id}`, { token: admin.token, body: { title: "A new title" } });
    expect(edit.status).toBe(200);
    const changed = await get(`/api/questions/${id}`, { headers: { "if-none-match": tag as string } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.title).toBe("A new title");
    expect(changed.headers.get("etag")).toMatch(QUOTED_SHA1);
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("keeps a logged-in caller's 304 private, and tags lists too", async () => {
    const user = await createUser();
    const mine = await get("/api/user", { token: user.token });
    const tag = mine.headers.get("etag") as string;
    expect(tag).toMatch(QUOTED_SHA1);
    const again = await get("/api/user", { token: user.token, headers: { "if-none-match": tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("private, no-store");

    const list = await get("/api/questions");
    expect(list.headers.get("etag")).toMatch(QUOTED_SHA1);
    expect(
      (await get("/api/questions", { headers: { "if-none-match": `"x", ${list.headers.get("etag")}` } })).status,
    ).toBe(304);
  });

  it("tags neither errors nor writes", async () => {
    const user = await createUser();
    const missing = await get("/api/questions/999999");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("etag")).toBeNull();
    const write = await call("POST", "/api/topics", { token: user.token, body: { name: "x" } });
    expect(write.headers.get("etag")).toBeNull();
  });
});
