/**
 * Topic covers (docs/images.md#topic-covers): topics created and edited through multipart forms with a `cover` file,
 * stored in R2 in the topic-cover sizes, old files deleted on a new cover, bad covers refused on `cover`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerFolder } from "../src/lib/storage";
import { decoded, fetchFile, picture } from "./fixtures/pictures";
import { type ApiResponse, BASE, call, get } from "./helpers/api";
import { createAdmin, createUser, type TestUser, uniqueName } from "./helpers/factories";

type Urls = Record<"original" | "small" | "middle" | "large", string>;
const SIZES = { small: [360, 202], middle: [720, 404], large: [1080, 606] } as const;

function form(fields: Record<string, string | File>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

const coverFile = (format: "png" | "jpeg" = "png", width = 1200, height = 800) =>
  new File([picture(format, width, height)], `cover.${format}`, { type: `image/${format}` });

const send = (
  method: string,
  path: string,
  user: TestUser,
  fields: Record<string, string | File>,
): Promise<ApiResponse> => call(method, path, { token: user.token, rawBody: form(fields) });

const keyOf = (url: string) => url.slice(`${BASE}/upload/`.length);
const topicRow = (id: number) =>
  env.DB.prepare("SELECT name, description, cover FROM topics WHERE topic_id = ?")
    .bind(id)
    .first<Record<string, string>>();

async function expectStoredSet(urls: Urls, type: string, original: [number, number]) {
  for (const [size, url] of Object.entries(urls)) {
    expect(await env.BUCKET.head(keyOf(url))).not.toBeNull();
    const { res, bytes } = await fetchFile(url);
    expect(res.status).toBe(200);
    const image = decoded(bytes);
    expect(image.type).toBe(type);
    expect([image.width, image.height]).toEqual(size === "original" ? original : SIZES[size as keyof typeof SIZES]);
  }
}

async function expectGone(urls: Urls) {
  for (const url of Object.values(urls)) expect(await env.BUCKET.head(keyOf(url))).toBeNull();
}

async function topicWithCover(admin: TestUser) {
  const res = await send("POST", "/api/topics", admin, {
    name: uniqueName("t"),
    description: "d",
    cover: coverFile("png"),
  });
  expect(res.status).toBe(200);
  return res.body.data as { topic_id: number; name: string; cover: Urls };
}

describe("POST /api/topics (multipart)", () => {
  it("creates the topic with its cover stored in every size under the topic's folder", async () => {
    const admin = await createAdmin();
    const name = uniqueName("t");
    const res = await send("POST", "/api/topics", admin, {
      name: ` ${name} `,
      description: "About things",
      cover: coverFile("png"),
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const topic = res.body.data;
    expect(topic).toMatchObject({ name, description: "About things" });
    const folder = await ownerFolder("topic-cover", topic.topic_id);
    expect(topic.cover.original).toMatch(new RegExp(`^${BASE}/upload/${folder}/[0-9a-f]{32}\\.png$`));
    await expectStoredSet(topic.cover, "png", [1200, 800]);
    expect((await topicRow(topic.topic_id))?.cover).toBe(keyOf(topic.cover.original));
    expect((await get(`/api/topics/${topic.topic_id}`)).body.data.cover).toEqual(topic.cover);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("creates a topic without a cover, showing the default cover", async () => {
    const admin = await createAdmin();
    const res = await send("POST", "/api/topics", admin, { name: uniqueName("t"), description: "d" });
    expect(res.status).toBe(200);
    expect(res.body.data.cover.original).toBe(`${BASE}/static/default/topic_cover.jpg`);
  });

  it("refuses a cover that is not an image with 200001 on cover, creating nothing", async () => {
    const admin = await createAdmin();
    const name = uniqueName("t");
    const bad = new File([new TextEncoder().encode("hello")], "cover.png", { type: "image/png" });
    const res = await send("POST", "/api/topics", admin, { name, description: "d", cover: bad });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors.cover).toEqual(expect.any(String));
    expect(await env.DB.prepare("SELECT count(*) AS n FROM topics").first("n")).toBe(0);
    expect((await env.BUCKET.list()).objects).toEqual([]);
  });

  it("refuses a damaged image after the insert by removing the new topic again", async () => {
    const admin = await createAdmin();
    // A valid PNG header with its pixel data cut off: sniffed as a PNG, it fails to decode.
    const cut = new File([picture("png", 800, 600).slice(0, 200)], "cover.png", { type: "image/png" });
    const res = await send("POST", "/api/topics", admin, { name: uniqueName("t"), description: "d", cover: cut });
    expect([res.status, res.body.code]).toEqual([400, 200001]);
    expect(res.body.errors.cover).toMatch(/damaged/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM topics").first("n")).toBe(0);
    expect((await env.BUCKET.list()).objects).toEqual([]);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("validates the text fields of the form like the JSON ones", async () => {
    const admin = await createAdmin();
    const res = await send("POST", "/api/topics", admin, { description: "d", cover: coverFile() });
    expect([res.status, res.body.code]).toEqual([400, 200001]);
    expect(res.body.errors.name).toEqual(expect.any(String));
    expect((await env.BUCKET.list()).objects).toEqual([]);
  });

  it("refuses users with 201002 and anonymous callers with 201001", async () => {
    const user = await createUser();
    expect(
      (await send("POST", "/api/topics", user, { name: "x", description: "d", cover: coverFile() })).body.code,
    ).toBe(201002);
    expect((await call("POST", "/api/topics", { rawBody: form({ name: "x", description: "d" }) })).body.code).toBe(
      201001,
    );
  });
});

describe("POST|PATCH /api/topics/{topic_id} (multipart)", () => {
  it("replaces the cover (new URLs, old files deleted) and changes the fields sent, within 3 round trips", async () => {
    const admin = await createAdmin();
    const topic = await topicWithCover(admin);
    const res = await send("POST", `/api/topics/${topic.topic_id}`, admin, {
      description: "new words",
      cover: coverFile("jpeg", 1500, 900),
    });
    expect(res.status).toBe(200);
    const edited = res.body.data;
    expect(edited).toMatchObject({ name: topic.name, description: "new words" });
    for (const size of ["original", "small", "middle", "large"] as const)
      expect(edited.cover[size]).not.toBe(topic.cover[size]);
    await expectStoredSet(edited.cover, "jpeg", [1500, 900]);
    await expectGone(topic.cover);
    expect((await topicRow(topic.topic_id))?.cover).toBe(keyOf(edited.cover.original));
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("keeps the cover when a form edit sends none (PATCH)", async () => {
    const admin = await createAdmin();
    const topic = await topicWithCover(admin);
    const res = await send("PATCH", `/api/topics/${topic.topic_id}`, admin, { name: uniqueName("n") });
    expect(res.status).toBe(200);
    expect(res.body.data.cover).toEqual(topic.cover);
    await expectStoredSet(topic.cover, "png", [1200, 800]);
  });

  it("changes nothing when the new name is taken: 409, the new files removed, the old cover kept", async () => {
    const admin = await createAdmin();
    const [topic, other] = [await topicWithCover(admin), await topicWithCover(admin)];
    const before = (await env.BUCKET.list()).objects.map((o) => o.key).sort();
    const res = await send("POST", `/api/topics/${topic.topic_id}`, admin, {
      name: other.name,
      cover: coverFile("jpeg"),
    });
    expect([res.status, res.body.code]).toEqual([409, 200001]);
    expect(res.body.errors.name).toEqual(expect.any(String));
    expect((await env.BUCKET.list()).objects.map((o) => o.key).sort()).toEqual(before);
    expect((await topicRow(topic.topic_id))?.cover).toBe(keyOf(topic.cover.original));
  });

  it("answers 205001 for a missing topic without storing the cover", async () => {
    const admin = await createAdmin();
    const res = await send("POST", "/api/topics/999999", admin, { cover: coverFile() });
    expect([res.status, res.body.code]).toEqual([404, 205001]);
    expect((await env.BUCKET.list()).objects).toEqual([]);
  });

  it("refuses a bad cover with 200001 on cover and leaves the topic as it was", async () => {
    const admin = await createAdmin();
    const topic = await topicWithCover(admin);
    const bad = new File([new TextEncoder().encode("nope")], "c.jpg", { type: "image/jpeg" });
    const res = await send("POST", `/api/topics/${topic.topic_id}`, admin, { description: "changed", cover: bad });
    expect([res.status, res.body.code]).toEqual([400, 200001]);
    expect(res.body.errors.cover).toEqual(expect.any(String));
    expect(await topicRow(topic.topic_id)).toMatchObject({ description: "d", cover: keyOf(topic.cover.original) });
  });

  it("still takes JSON", async () => {
    const admin = await createAdmin();
    const topic = await topicWithCover(admin);
    const res = await call("PATCH", `/api/topics/${topic.topic_id}`, {
      token: admin.token,
      body: { description: "json" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ description: "json", cover: topic.cover });
  });
});

describe("DELETE /api/topics/{topic_id} and /api/topics/{topic_ids}", () => {
  it("removes the deleted topics' cover files from storage once the rows are gone, and keeps the others'", async () => {
    const admin = await createAdmin();
    const [one, two, kept] = [await topicWithCover(admin), await topicWithCover(admin), await topicWithCover(admin)];
    const single = await call("DELETE", `/api/topics/${one.topic_id}`, { token: admin.token });
    expect([single.status, single.body.code]).toEqual([200, 0]);
    await expectGone(one.cover);
    // A trashed topic still owns its cover until it is deleted.
    await call("POST", `/api/topics/${two.topic_id}/trash`, { token: admin.token });
    await expectStoredSet(two.cover, "png", [1200, 800]);
    const list = await call("DELETE", `/api/topics/${two.topic_id},${kept.topic_id + 1000}`, { token: admin.token });
    expect([list.status, list.body.code]).toEqual([200, 0]);
    await expectGone(two.cover);
    await expectStoredSet(kept.cover, "png", [1200, 800]);
  });
});
