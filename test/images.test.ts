/**
 * Content images (docs/operations.md#images, docs/images.md): real PNG, JPEG, GIF and WebP uploads stored in R2 with
 * their derived sizes, the Image record, both key forms, administrators' list, rename and delete; and the image library
 * under them (type sniffing, geometry, GIF encoding, storage layout).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { encodeGif } from "../src/lib/images/gif";
import { Photon } from "../src/lib/images/photon";
import { sniffImage } from "../src/lib/images/sniff";
import { geometryOf, MAX_PIXELS, renderVariants } from "../src/lib/images/variants";
import {
  AVATAR_SIZES,
  contentImagePath,
  deleteImageSet,
  IMMUTABLE,
  ImageError,
  ownerFolder,
  storeImageSet,
  variantPath,
} from "../src/lib/storage";
import { alphaWebp, animatedGif, lossyWebp, progressiveJpeg } from "./fixtures/images";
import { decoded, fetchFile, picture, storedKeys } from "./fixtures/pictures";
import { type ApiResponse, BASE, del, get, patch, post } from "./helpers/api";
import { createAnswer, createArticle, createQuestion } from "./helpers/content";
import { createAdmin, createUser, setOptions, type TestUser } from "./helpers/factories";

const MiB = 1024 * 1024;

async function upload(
  user: TestUser | null,
  bytes: Uint8Array,
  filename = "picture.png",
  type = "image/png",
  field = "image",
): Promise<ApiResponse> {
  const form = new FormData();
  form.append(field, new File([bytes], filename, { type }));
  return post("/api/images", { token: user?.token, rawBody: form });
}

/** The three URLs of a record with the R2 keys they name. */
function pathsOf(urls: Record<"original" | "thumb" | "release", string>) {
  return Object.fromEntries(
    Object.entries(urls).map(([size, url]) => [size, url.slice(`${BASE}/upload/`.length)]),
  ) as Record<"original" | "thumb" | "release", string>;
}

/** An image row straight into D1, for list, rename and delete tests that need no pixels. */
async function insertImage(
  userId: number,
  fields: { key?: string; create_time?: number; item_type?: string; item_id?: number } = {},
) {
  const key = fields.key ?? `${crypto.randomUUID().replaceAll("-", "")}.png`;
  await env.DB.prepare(
    "INSERT INTO images (key, filename, width, height, create_time, item_type, item_id, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(
      key,
      "a.png",
      10,
      20,
      fields.create_time ?? 1_700_000_000,
      fields.item_type ?? null,
      fields.item_id ?? 0,
      userId,
    )
    .run();
  return key;
}

const imageRow = (key: string) => env.DB.prepare("SELECT * FROM images WHERE key = ?").bind(key).first();

interface Case {
  name: string;
  bytes: () => Uint8Array;
  width: number;
  height: number;
  type: "png" | "jpeg" | "gif" | "webp";
  ext: string;
}

const release = (width: number, height: number) =>
  width > 702 ? [702, Math.round((height * 702) / width)] : [width, height];

const CASES: Case[] = [
  { name: "a PNG", bytes: () => picture("png", 1600, 1200), width: 1600, height: 1200, type: "png", ext: "png" },
  { name: "a JPEG", bytes: () => picture("jpeg", 1600, 1200), width: 1600, height: 1200, type: "jpeg", ext: "jpg" },
  {
    name: "a lossless WebP",
    bytes: () => picture("webp", 1000, 700),
    width: 1000,
    height: 700,
    type: "webp",
    ext: "webp",
  },
  { name: "a lossy WebP", bytes: () => lossyWebp.bytes, width: 900, height: 600, type: "webp", ext: "webp" },
  {
    name: "a WebP with alpha (narrower than 702)",
    bytes: () => alphaWebp.bytes,
    width: 300,
    height: 200,
    type: "webp",
    ext: "webp",
  },
  { name: "an animated GIF", bytes: () => animatedGif.bytes, width: 800, height: 450, type: "gif", ext: "gif" },
];

describe("POST /api/images", () => {
  describe.each(CASES)("$name", ({ bytes, width, height, type, ext }) => {
    it("stores the file, its thumb and its release in R2 and answers the Image record", async () => {
      const user = await createUser();
      const file = bytes();
      const res = await upload(user, file, `holiday.${ext}`, `image/${type}`);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      const image = res.body.data;
      expect(image).toMatchObject({
        filename: `holiday.${ext}`,
        width,
        height,
        item_type: null,
        item_id: 0,
        user_id: user.user_id,
      });
      expect(image.key).toMatch(new RegExp(`^[0-9a-f]{32}_${ext}$`));
      expect(Math.abs(image.create_time - Date.now() / 1000)).toBeLessThan(60);
      expect(res.roundTrips).toBeLessThanOrEqual(2);

      const key = image.key.replace(`_${ext}`, `.${ext}`);
      const day = new Date(image.create_time * 1000).toISOString();
      const original = `image/${day.slice(0, 7)}/${day.slice(8, 10)}/${key.slice(0, 2)}/${key}`;
      expect(pathsOf(image.urls)).toEqual({
        original,
        thumb: variantPath(original, "thumb"),
        release: variantPath(original, "release"),
      });
      expect(image.urls.thumb).toBe(`${BASE}/upload/${original.replace(`.${ext}`, `_thumb.${ext}`)}`);

      const expected = { original: [width, height], thumb: [132, 88], release: release(width, height) };
      for (const [size, url] of Object.entries(image.urls) as [keyof typeof expected, string][]) {
        const head = await env.BUCKET.head(url.slice(`${BASE}/upload/`.length));
        expect(head?.httpMetadata?.contentType, size).toBe(`image/${type}`);
        expect(head?.httpMetadata?.cacheControl).toBe(IMMUTABLE);
        const served = await fetchFile(url);
        expect(served.res.status).toBe(200);
        expect(served.res.headers.get("content-type")).toBe(`image/${type}`);
        const { type: servedType, width: w, height: h } = decoded(served.bytes);
        expect([servedType, w, h], size).toEqual([type, ...expected[size]]);
      }
      expect(await storedKeys()).toHaveLength(3);
      expect(await imageRow(key)).toMatchObject({
        filename: `holiday.${ext}`,
        width,
        height,
        user_id: user.user_id,
        item_id: 0,
        item_type: null,
      });
    });
  });

  it("stores the original's bytes as they came, and reuses them for sizes it would not change", async () => {
    const user = await createUser();
    // 120x80 is already 3:2 and smaller than both sizes: nothing to crop, nothing to shrink.
    const res = await upload(user, progressiveJpeg.bytes, "small.jpg", "image/jpeg");
    expect(res.status).toBe(200);
    for (const url of Object.values(res.body.data.urls) as string[]) {
      expect((await fetchFile(url)).bytes).toEqual(progressiveJpeg.bytes);
    }
  });

  it("crops a small image to the thumb's proportions without enlarging it", async () => {
    const user = await createUser();
    const res = await upload(user, picture("png", 100, 100));
    expect(res.status).toBe(200);
    expect(decoded((await fetchFile(res.body.data.urls.thumb)).bytes)).toMatchObject({ width: 100, height: 67 });
    expect(decoded((await fetchFile(res.body.data.urls.release)).bytes)).toMatchObject({ width: 100, height: 100 });
  });

  it("types a file by its bytes: a PNG named .jpg and sent as image/jpeg is stored as a PNG", async () => {
    const user = await createUser();
    const res = await upload(user, picture("png", 300, 200), "photo.jpg", "image/jpeg");
    expect(res.status).toBe(200);
    expect(res.body.data.key).toMatch(/_png$/);
    expect(res.body.data.filename).toBe("photo.jpg");
    const served = await fetchFile(res.body.data.urls.original);
    expect(served.res.headers.get("content-type")).toBe("image/png");
  });

  it("refuses a text file named .png and sent as image/png with 200004, storing nothing", async () => {
    const user = await createUser();
    const res = await upload(user, new TextEncoder().encode("just some text, not a picture"), "fake.png", "image/png");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200004);
    expect(res.body.extra_message).toMatch(/not a PNG, JPEG, GIF or WebP/);
    expect(await storedKeys()).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM images").first("n")).toBe(0);
  });

  it("refuses other image types (BMP) with 200004", async () => {
    const user = await createUser();
    const bmp = new Uint8Array(70);
    bmp.set([0x42, 0x4d]);
    const res = await upload(user, bmp, "a.bmp", "image/bmp");
    expect(res.body.code).toBe(200004);
  });

  it("refuses a damaged file whose header is fine with 200004, storing nothing", async () => {
    const user = await createUser();
    const whole = picture("png", 400, 300);
    const res = await upload(user, whole.slice(0, whole.length >> 1));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200004);
    expect(res.body.extra_message).toMatch(/damaged/);
    expect(await storedKeys()).toEqual([]);
  });

  it("refuses a file over 5 MiB with 200004 (HTTP 413)", async () => {
    const user = await createUser();
    const big = new Uint8Array(5 * MiB + 1);
    big.set(picture("png", 10, 10));
    const res = await upload(user, big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200004);
    expect(res.body.extra_message).toMatch(/too large/);
  });

  it("refuses a streamed body with no Content-Length once it passes the limit", async () => {
    const user = await createUser();
    const boundary = "----limit";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunk = new Uint8Array(MiB);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 16 MiB in all, unless the Worker stops reading first.
        if (sent === 0) controller.enqueue(head);
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request(`${BASE}/api/images`, {
      method: "POST",
      headers: { token: user.token, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const { res, bytes } = await fetchFile(request);
    expect(res.status).toBe(413);
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ code: 200004 });
    expect(sent).toBeLessThan(16);
  });

  it("refuses an image of too many pixels from its header, before decoding it", async () => {
    const user = await createUser();
    // A PNG header that claims 20000x20000 (400 MP) over a few bytes: a decompression bomb's shape.
    const bomb = picture("png", 2, 2);
    new DataView(bomb.buffer).setUint32(16, 20000);
    new DataView(bomb.buffer).setUint32(20, 20000);
    const res = await upload(user, bomb);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(200004);
    expect(res.body.extra_message).toMatch(/20000x20000/);
  });

  it("refuses a request without the `image` field, or not multipart, with 200004", async () => {
    const user = await createUser();
    const wrongField = await upload(user, picture("png", 20, 20), "a.png", "image/png", "file");
    expect(wrongField.body.code).toBe(200004);
    expect(wrongField.body.extra_message).toMatch(/image/);
    const json = await post("/api/images", { token: user.token, body: { image: "a.png" } });
    expect(json.body.code).toBe(200004);
    expect(json.body.extra_message).toMatch(/multipart/);
  });

  it("refuses an anonymous caller with 201001 before reading the file", async () => {
    const res = await upload(null, picture("png", 20, 20));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("keeps the client's file name with tags stripped, trimmed and cut to 255 characters", async () => {
    const user = await createUser();
    const tagged = await upload(user, picture("png", 20, 20), "  <b>summer</b> photo.png ");
    expect(tagged.body.data.filename).toBe("summer photo.png");
    const long = await upload(user, picture("png", 20, 20), `${"é".repeat(300)}.png`);
    expect(Array.from(long.body.data.filename as string)).toHaveLength(255);
  });

  it("builds the URLs on storage_url when it is set", async () => {
    await setOptions({ storage_url: "https://files.example.test/cdn/" });
    const user = await createUser();
    const res = await upload(user, picture("png", 30, 20));
    expect(res.body.data.urls.original).toMatch(
      /^https:\/\/files\.example\.test\/cdn\/image\/\d{4}-\d{2}\/\d{2}\/[0-9a-f]{2}\/[0-9a-f]{32}\.png$/,
    );
  });
});

describe("GET /api/images/{key}", () => {
  it("answers anyone, in both key forms, within two round trips", async () => {
    const user = await createUser();
    const key = await insertImage(user.user_id);
    const [name, ext] = key.split(".");
    for (const form of [`${name}_${ext}`, key]) {
      const res = await get(`/api/images/${form}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        key: `${name}_${ext}`,
        filename: "a.png",
        width: 10,
        height: 20,
        user_id: user.user_id,
      });
      expect(res.body.data.relationships).toBeUndefined();
      expect(res.roundTrips).toBeLessThanOrEqual(1);
    }
    const anonymous = await get(`/api/images/${name}_${ext}`);
    expect(anonymous.status).toBe(200);
  });

  it("includes the uploader and the live linked item", async () => {
    const user = await createUser();
    const question = await createQuestion(user.user_id, { title: "Where is it?" });
    const trashed = await createArticle(user.user_id, { delete_time: 1_700_000_000 });
    const answer = await createAnswer(user.user_id, question, { content_markdown: "Here it is" });
    const onQuestion = await insertImage(user.user_id, { item_type: "question", item_id: question });
    const onTrashed = await insertImage(user.user_id, { item_type: "article", item_id: trashed });
    const onAnswer = await insertImage(user.user_id, { item_type: "answer", item_id: answer });

    const res = await get(`/api/images/${onQuestion}`, {
      query: { include: "user,question,answer,article,nonsense" },
      token: user.token,
    });
    expect(res.body.data.relationships).toEqual({
      user: {
        user_id: user.user_id,
        username: user.username,
        headline: expect.any(String),
        avatar: expect.objectContaining({ original: expect.any(String) }),
      },
      question: {
        question_id: question,
        title: "Where is it?",
        create_time: expect.any(Number),
        update_time: expect.any(Number),
      },
      answer: null,
      article: null,
    });
    expect(res.roundTrips).toBeLessThanOrEqual(1);
    const trashedItem = await get(`/api/images/${onTrashed}`, { query: { include: "article" } });
    expect(trashedItem.body.data.relationships).toEqual({ article: null });
    const answered = await get(`/api/images/${onAnswer}`, { query: { include: "answer" } });
    expect(answered.body.data.relationships.answer).toMatchObject({
      answer_id: answer,
      question_id: question,
      content_summary: "Here it is",
    });
  });

  it("answers 200005 for an unknown key", async () => {
    const res = await get("/api/images/0123456789abcdef0123456789abcdef_png");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(200005);
  });
});

describe("GET /api/images", () => {
  it("refuses anonymous callers (201001) and users (201002)", async () => {
    const user = await createUser();
    expect((await get("/api/images")).body.code).toBe(201001);
    const res = await get("/api/images", { token: user.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
  });

  it("lists newest first with the uploader, pages, and filters, in two round trips", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const older = await insertImage(user.user_id, { create_time: 1_700_000_000 });
    const newer = await insertImage(admin.user_id, { create_time: 1_700_000_100, item_type: "question", item_id: 7 });
    const newest = await insertImage(user.user_id, { create_time: 1_700_000_200 });
    const wire = (key: string) => key.replace(".", "_");

    const res = await get("/api/images", { token: admin.token, query: { include: "user", per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: { key: string }) => i.key)).toEqual([wire(newest), wire(newer)]);
    expect(res.body.data[0].relationships.user).toMatchObject({ user_id: user.user_id, username: user.username });
    expect(res.body.pagination).toMatchObject({ page: 1, per_page: 2, total: 3, pages: 2, next: 2 });
    expect(res.roundTrips).toBeLessThanOrEqual(1);

    const ascending = await get("/api/images", { token: admin.token, query: { order: "create_time" } });
    expect(ascending.body.data.map((i: { key: string }) => i.key)).toEqual([older, newer, newest].map(wire));
    const byUser = await get("/api/images", { token: admin.token, query: { user_id: user.user_id } });
    expect(byUser.body.data.map((i: { key: string }) => i.key)).toEqual([newest, older].map(wire));
    const byItem = await get("/api/images", { token: admin.token, query: { item_type: "question", item_id: 7 } });
    expect(byItem.body.pagination.total).toBe(1);
    for (const key of [older, wire(older)]) {
      const byKey = await get("/api/images", { token: admin.token, query: { key } });
      expect(byKey.body.data.map((i: { key: string }) => i.key)).toEqual([wire(older)]);
    }
    const bad = await get("/api/images", { token: admin.token, query: { user_id: "x" } });
    expect(bad.body.code).toBe(200001);
    expect(bad.body.errors).toHaveProperty("user_id");
  });
});

describe("PATCH /api/images/{key}", () => {
  it("lets an administrator rename an image, in both key forms", async () => {
    const admin = await createAdmin();
    const key = await insertImage(admin.user_id);
    const res = await patch(`/api/images/${key.replace(".", "_")}`, {
      token: admin.token,
      body: { filename: "  <i>new</i> name.png " },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ key: key.replace(".", "_"), filename: "new name.png" });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const again = await patch(`/api/images/${key}`, { token: admin.token, body: { filename: "other.png" } });
    expect(again.body.data.filename).toBe("other.png");
    expect(await imageRow(key)).toMatchObject({ filename: "other.png" });
  });

  it("refuses an empty name (200001), an unknown key (200005), users (201002) and anonymous callers (201001)", async () => {
    const admin = await createAdmin();
    const user = await createUser();
    const key = await insertImage(user.user_id);
    const empty = await patch(`/api/images/${key}`, { token: admin.token, body: { filename: " <b></b> " } });
    expect(empty.body.code).toBe(200001);
    expect(empty.body.errors).toHaveProperty("filename");
    expect(
      (await patch("/api/images/0123456789abcdef0123456789abcdef_png", { token: admin.token, body: { filename: "x" } }))
        .body.code,
    ).toBe(200005);
    expect((await patch(`/api/images/${key}`, { token: user.token, body: { filename: "x" } })).body.code).toBe(201002);
    expect((await patch(`/api/images/${key}`, { body: { filename: "x" } })).body.code).toBe(201001);
  });
});

describe("DELETE /api/images/{key}", () => {
  it("deletes the row and every stored file, in both key forms, within three round trips", async () => {
    const admin = await createAdmin();
    const first = (await upload(admin, picture("png", 800, 600))).body.data;
    const second = (await upload(admin, picture("jpeg", 800, 600), "b.jpg", "image/jpeg")).body.data;
    expect(await storedKeys()).toHaveLength(6);

    const res = await del(`/api/images/${first.key}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    for (const path of Object.values(pathsOf(first.urls))) expect(await env.BUCKET.head(path)).toBeNull();
    expect((await fetchFile(first.urls.original)).res.status).toBe(404);

    await del(`/api/images/${second.key.replace("_jpg", ".jpg")}`, { token: admin.token });
    expect(await storedKeys()).toEqual([]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM images").first("n")).toBe(0);
  });

  it("answers 200005 for one unknown key", async () => {
    const admin = await createAdmin();
    const res = await del("/api/images/0123456789abcdef0123456789abcdef_png", { token: admin.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(200005);
  });

  it("deletes a comma list, skipping unknown keys, and refuses more than 100", async () => {
    const admin = await createAdmin();
    const a = (await upload(admin, picture("png", 200, 150))).body.data;
    const b = await insertImage(admin.user_id);
    const kept = await insertImage(admin.user_id);
    const res = await del(`/api/images/${a.key},${b},0123456789abcdef0123456789abcdef_gif`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(await storedKeys()).toEqual([]);
    const left = await env.DB.prepare("SELECT key FROM images").all();
    expect(left.results).toEqual([{ key: kept }]);

    const tooMany = Array.from({ length: 101 }, (_, i) => `${String(i).padStart(32, "0")}_png`).join(",");
    const refused = await del(`/api/images/${tooMany}`, { token: admin.token });
    expect(refused.body.code).toBe(200001);
  });

  it("refuses users (201002) and anonymous callers (201001)", async () => {
    const user = await createUser();
    const key = await insertImage(user.user_id);
    expect((await del(`/api/images/${key}`, { token: user.token })).body.code).toBe(201002);
    expect((await del(`/api/images/${key}`)).body.code).toBe(201001);
    expect(await imageRow(key)).not.toBeNull();
  });
});

describe("image library", () => {
  it("tells types by their bytes and reads sizes from headers", () => {
    expect(sniffImage(picture("png", 31, 17))).toMatchObject({
      type: "png",
      ext: "png",
      mime: "image/png",
      width: 31,
      height: 17,
    });
    expect(sniffImage(picture("jpeg", 31, 17))).toMatchObject({ type: "jpeg", ext: "jpg", width: 31, height: 17 });
    expect(sniffImage(picture("webp", 31, 17))).toMatchObject({ type: "webp", width: 31, height: 17 }); // VP8L
    expect(sniffImage(lossyWebp.bytes)).toMatchObject({ type: "webp", width: 900, height: 600 }); // VP8
    expect(sniffImage(alphaWebp.bytes)).toMatchObject({ type: "webp", width: 300, height: 200 }); // VP8X
    expect(sniffImage(animatedGif.bytes)).toMatchObject({ type: "gif", ext: "gif", width: 800, height: 450 });
    expect(sniffImage(progressiveJpeg.bytes)).toMatchObject({ type: "jpeg", width: 120, height: 80 });
    expect(sniffImage(new TextEncoder().encode("GIF89a"))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });

  it("plans crops and shrinks as the reference does", () => {
    const thumb = { name: "thumb", width: 132, height: 88 };
    const wide = { name: "release", width: 702, height: 0 };
    expect(geometryOf(1600, 1200, thumb)).toEqual({
      scale: { width: 132, height: 99 },
      crop: { x: 0, y: 5, width: 132, height: 88 },
    });
    expect(geometryOf(1600, 1200, wide)).toEqual({
      scale: { width: 702, height: 527 },
      crop: { x: 0, y: 0, width: 702, height: 527 },
    });
    expect(geometryOf(500, 2000, wide).crop).toEqual({ x: 0, y: 0, width: 500, height: 2000 });
    expect(geometryOf(200, 50, thumb)).toEqual({ crop: { x: 62, y: 0, width: 75, height: 50 } });
    expect(geometryOf(10, 1000, AVATAR_SIZES[0]!)).toEqual({ crop: { x: 0, y: 495, width: 10, height: 10 } });
  });

  it("encodes GIFs that decode to the same pixels (few colours) or close ones (many), with transparency", () => {
    const photon = new Photon();
    const few = new Uint8Array(64 * 48 * 4);
    for (let i = 0; i < few.length; i += 4) few.set(i % 12 === 0 ? [0, 0, 0, 0] : [(i * 7) % 200, 10, 250, 255], i);
    const back = photon.pixels(photon.decode(encodeGif(few, 64, 48)));
    for (let i = 0; i < few.length; i += 4) {
      if (few[i + 3] === 0) expect(back[i + 3]).toBe(0);
      else expect(Array.from(back.subarray(i, i + 4))).toEqual(Array.from(few.subarray(i, i + 4)));
    }
    // A smooth gradient of 60,000 colours: median cut keeps every channel within a few levels on average.
    const many = new Uint8Array(300 * 200 * 4);
    for (let p = 0; p < 300 * 200; p++)
      many.set([((p % 300) * 255) / 300, (Math.floor(p / 300) * 255) / 200, 128, 255], p * 4);
    const approx = photon.pixels(photon.decode(encodeGif(many, 300, 200)));
    let error = 0;
    for (let i = 0; i < many.length; i++) error += Math.abs((many[i] as number) - (approx[i] as number));
    expect(error / many.length).toBeLessThan(4);
  });

  it("encodes a GIF of many colours with transparent pixels, from pixels that share their buffer", () => {
    const photon = new Photon();
    const [width, height] = [320, 240];
    // The pixels sit behind 8 other bytes in their buffer, as a view into a larger one would.
    const buffer = new Uint8Array(8 + width * height * 4);
    const rgba = buffer.subarray(8);
    for (let p = 0; p < width * height; p++) {
      const [x, y] = [p % width, Math.floor(p / width)];
      // A transparent disc in the middle; the rest a gradient of tens of thousands of colours.
      const hole = (x - 160) ** 2 + (y - 120) ** 2 < 60 ** 2;
      rgba.set([(x * 255) / width, (y * 255) / height, (x + y) % 256, hole ? 0 : 255], p * 4);
    }
    const before = Array.from(rgba.subarray(0, 16));
    const back = photon.pixels(photon.decode(encodeGif(rgba, width, height)));
    expect(Array.from(rgba.subarray(0, 16))).toEqual(before);
    expect(back).toHaveLength(rgba.length);
    let error = 0;
    let opaque = 0;
    for (let i = 0; i < rgba.length; i += 4) {
      if (rgba[i + 3] === 0) {
        expect(back[i + 3]).toBe(0);
        continue;
      }
      expect(back[i + 3]).toBe(255);
      for (let c = 0; c < 3; c++) error += Math.abs((rgba[i + c] as number) - (back[i + c] as number));
      opaque += 3;
    }
    expect(error / opaque).toBeLessThan(6);
  });

  it("survives many damaged files: each job has its own WebAssembly instance", () => {
    const whole = picture("png", 64, 64);
    const info = sniffImage(whole)!;
    const sizes = [{ name: "thumb", width: 32, height: 32 }];
    for (let i = 0; i < 300; i++) expect(() => renderVariants(whole.slice(0, 80), info, sizes)).toThrow(ImageError);
    expect(decoded(renderVariants(whole, info, sizes)[0]!.bytes)).toMatchObject({ width: 32, height: 32 });
  });

  it("lays files out as the reference does", async () => {
    expect(contentImagePath("ab12.png", Date.UTC(2026, 0, 5, 23, 59) / 1000)).toBe("image/2026-01/05/ab/ab12.png");
    expect(variantPath("user-avatar/c4/ca/x.png", "small")).toBe("user-avatar/c4/ca/x_small.png");
    // md5("1") = c4ca4238...
    expect(await ownerFolder("user-avatar", 1)).toBe("user-avatar/c4/ca");
    expect(MAX_PIXELS).toBeGreaterThan(1600 * 1200);
  });

  it("stores and deletes an avatar set in the avatar sizes", async () => {
    const folder = await ownerFolder("user-avatar", 42);
    const stored = await storeImageSet(
      env.BUCKET,
      (name) => `${folder}/${name}`,
      picture("jpeg", 300, 200),
      AVATAR_SIZES,
    );
    expect(stored).toMatchObject({ type: "jpeg", width: 300, height: 200 });
    expect(stored.path).toBe(`${folder}/${stored.key}`);
    // Never enlarged: the 256x256 size of a 300x200 picture is its 200x200 centre.
    const expected = { small: 64, middle: 128, large: 200 };
    for (const size of AVATAR_SIZES) {
      const object = await env.BUCKET.get(variantPath(stored.path, size.name));
      const side = expected[size.name as keyof typeof expected];
      expect(decoded(new Uint8Array(await object!.arrayBuffer()))).toEqual({ type: "jpeg", width: side, height: side });
    }
    await deleteImageSet(env.BUCKET, stored.path, AVATAR_SIZES);
    expect(await storedKeys()).toEqual([]);
    await expect(storeImageSet(env.BUCKET, (name) => name, new Uint8Array([1, 2, 3]), AVATAR_SIZES)).rejects.toThrow(
      ImageError,
    );
  });
});
