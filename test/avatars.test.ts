/**
 * Avatars and user covers (docs/images.md#avatars-and-user-covers): real PNG and JPEG uploads stored in R2 in every
 * size, resets, the avatar generated at registration, refusals, and new URLs (serving the files) on every change.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { defaultAvatarPixels } from "../src/lib/images/default-avatar";
import { ownerFolder } from "../src/lib/storage";
import { decoded, fetchFile, picture } from "./fixtures/pictures";
import { type ApiResponse, BASE, del, get, post } from "./helpers/api";
import { createAdmin, createUser, type TestUser, uniqueName } from "./helpers/factories";
import { codeFromMail } from "./helpers/mailbox";

type Urls = Record<"original" | "small" | "middle" | "large", string>;
const SIZES = ["small", "middle", "large"] as const;
const AVATAR = { small: [64, 64], middle: [128, 128], large: [256, 256] } as const;
const COVER = { small: [600, 336], middle: [1050, 588], large: [1450, 812] } as const;

function upload(
  path: string,
  field: string,
  user: TestUser | null,
  bytes: Uint8Array,
  type = "image/png",
): Promise<ApiResponse> {
  const form = new FormData();
  form.append(field, new File([bytes], `picture.${type.split("/")[1]}`, { type }));
  return post(path, { token: user?.token, rawBody: form });
}

const keyOf = (url: string) => url.slice(`${BASE}/upload/`.length);
const keysOf = (urls: Urls) => Object.values(urls).map(keyOf);
const column = (userId: number, name: "avatar" | "cover") =>
  env.DB.prepare(`SELECT ${name} AS path FROM users WHERE user_id = ?`).bind(userId).first<string>("path");

/** Every URL is served from R2 and decodes to its size; the original keeps the upload's dimensions. */
async function expectStoredSet(
  urls: Urls,
  sizes: Record<(typeof SIZES)[number], readonly [number, number]>,
  type: string,
  original: [number, number],
) {
  for (const [size, url] of Object.entries(urls)) {
    expect(url.startsWith(`${BASE}/upload/`)).toBe(true);
    expect(await env.BUCKET.head(keyOf(url))).not.toBeNull();
    const { res, bytes } = await fetchFile(url);
    expect(res.status).toBe(200);
    const image = decoded(bytes);
    expect(image.type).toBe(type);
    const [width, height] = size === "original" ? original : sizes[size as (typeof SIZES)[number]];
    expect([image.width, image.height]).toEqual([width, height]);
  }
}

async function expectGone(urls: Urls) {
  for (const key of keysOf(urls)) expect(await env.BUCKET.head(key)).toBeNull();
}

describe("POST /api/user/avatar", () => {
  describe.each([
    { name: "a PNG", format: "png" as const, type: "png", ext: "png" },
    { name: "a JPEG", format: "jpeg" as const, type: "jpeg", ext: "jpg" },
  ])("$name", ({ format, type, ext }) => {
    it("stores the file in every size under the user's folder and answers its URLs, also in GET /api/user", async () => {
      const user = await createUser();
      const res = await upload("/api/user/avatar", "avatar", user, picture(format, 800, 600), `image/${type}`);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(0);
      const urls = res.body.data as Urls;
      const folder = await ownerFolder("user-avatar", user.user_id);
      expect(urls.original).toMatch(new RegExp(`^${BASE}/upload/${folder}/[0-9a-f]{32}\\.${ext}$`));
      for (const size of SIZES) expect(urls[size]).toBe(urls.original.replace(`.${ext}`, `_${size}.${ext}`));
      await expectStoredSet(urls, AVATAR, type, [800, 600]);
      expect(await column(user.user_id, "avatar")).toBe(keyOf(urls.original));
      const me = await get("/api/user", { token: user.token });
      expect(me.body.data.avatar).toEqual(urls);
      expect(res.roundTrips).toBeLessThanOrEqual(2);
    });
  });

  it("gives new URLs on a new upload and deletes the old files", async () => {
    const user = await createUser();
    const first = (await upload("/api/user/avatar", "avatar", user, picture("png", 300, 300))).body.data as Urls;
    const second = await upload("/api/user/avatar", "avatar", user, picture("jpeg", 400, 300), "image/jpeg");
    expect(second.status).toBe(200);
    const urls = second.body.data as Urls;
    for (const size of ["original", ...SIZES] as const) expect(urls[size]).not.toBe(first[size]);
    await expectGone(first);
    await expectStoredSet(urls, AVATAR, "jpeg", [400, 300]);
  });

  it("refuses a file that is not an image with 201007 and the reason, storing nothing", async () => {
    const user = await createUser();
    const res = await upload("/api/user/avatar", "avatar", user, new TextEncoder().encode("not an image at all"));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(201007);
    expect(res.body.extra_message).toMatch(/not a PNG, JPEG/);
    expect((await env.BUCKET.list()).objects).toEqual([]);
    expect(await column(user.user_id, "avatar")).toBe("");
  });

  it("refuses a request without the file, and a JSON body, with 201007", async () => {
    const user = await createUser();
    const missing = await upload("/api/user/avatar", "image", user, picture("png", 64, 64));
    expect([missing.status, missing.body.code]).toEqual([400, 201007]);
    expect(missing.body.extra_message).toContain("avatar");
    const json = await post("/api/user/avatar", { token: user.token, body: {} });
    expect([json.status, json.body.code]).toEqual([400, 201007]);
  });

  it("refuses a file over 5 MiB with 413 and 201007", async () => {
    const user = await createUser();
    const res = await upload("/api/user/avatar", "avatar", user, new Uint8Array(5 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(201007);
  });

  it("refuses an anonymous caller with 201001", async () => {
    const res = await upload("/api/user/avatar", "avatar", null, picture("png", 64, 64));
    expect([res.status, res.body.code]).toEqual([401, 201001]);
  });
});

describe("DELETE /api/user/avatar", () => {
  it("generates a new default avatar (PNG) with new URLs and deletes the uploaded files", async () => {
    const user = await createUser();
    const uploaded = (await upload("/api/user/avatar", "avatar", user, picture("jpeg", 500, 500), "image/jpeg")).body
      .data as Urls;
    const res = await del("/api/user/avatar", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const urls = res.body.data as Urls;
    expect(urls.original).toMatch(/\/upload\/user-avatar\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}\.png$/);
    await expectStoredSet(urls, AVATAR, "png", [256, 256]);
    await expectGone(uploaded);
    expect((await get("/api/user", { token: user.token })).body.data.avatar).toEqual(urls);
    expect(res.roundTrips).toBeLessThanOrEqual(2);

    // A second reset draws the same picture under new names again.
    const again = (await del("/api/user/avatar", { token: user.token })).body.data as Urls;
    expect(again.original).not.toBe(urls.original);
    await expectGone(urls);
  });

  it("refuses an anonymous caller with 201001", async () => {
    expect((await del("/api/user/avatar")).body.code).toBe(201001);
  });
});

describe("DELETE /api/users/{user_id}/avatar", () => {
  it("lets an administrator regenerate anyone's avatar", async () => {
    const [admin, user] = [await createAdmin(), await createUser()];
    const uploaded = (await upload("/api/user/avatar", "avatar", user, picture("png", 300, 200))).body.data as Urls;
    const res = await del(`/api/users/${user.user_id}/avatar`, { token: admin.token });
    expect(res.status).toBe(200);
    const urls = res.body.data as Urls;
    expect(urls.original).toContain(await ownerFolder("user-avatar", user.user_id));
    await expectStoredSet(urls, AVATAR, "png", [256, 256]);
    await expectGone(uploaded);
    expect(await column(user.user_id, "avatar")).toBe(keyOf(urls.original));
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("refuses a user with 201002, an anonymous caller with 201001, and a missing user with 201003", async () => {
    const [admin, user, other] = [await createAdmin(), await createUser(), await createUser()];
    expect((await del(`/api/users/${other.user_id}/avatar`, { token: user.token })).body.code).toBe(201002);
    expect((await del(`/api/users/${other.user_id}/avatar`)).body.code).toBe(201001);
    const missing = await del("/api/users/999999/avatar", { token: admin.token });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
    expect((await env.BUCKET.list()).objects).toEqual([]);
  });
});

describe("POST /api/user/cover", () => {
  it.each([
    { format: "png" as const, type: "png" },
    { format: "jpeg" as const, type: "jpeg" },
  ])("stores a $type cover in every size and answers its URLs", async ({ format, type }) => {
    const user = await createUser();
    const res = await upload("/api/user/cover", "cover", user, picture(format, 1600, 1000), `image/${type}`);
    expect(res.status).toBe(200);
    const urls = res.body.data as Urls;
    expect(urls.original).toContain(`/upload/${await ownerFolder("user-cover", user.user_id)}/`);
    await expectStoredSet(urls, COVER, type, [1600, 1000]);
    expect((await get("/api/user", { token: user.token })).body.data.cover).toEqual(urls);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("deletes the old cover on a new upload", async () => {
    const user = await createUser();
    const first = (await upload("/api/user/cover", "cover", user, picture("png", 700, 400))).body.data as Urls;
    const second = (await upload("/api/user/cover", "cover", user, picture("png", 700, 400))).body.data as Urls;
    expect(second.original).not.toBe(first.original);
    await expectGone(first);
  });

  it("refuses a file that is not an image with 201008, and an anonymous caller with 201001", async () => {
    const user = await createUser();
    const res = await upload("/api/user/cover", "cover", user, new TextEncoder().encode("plain text, no picture"));
    expect([res.status, res.body.code]).toEqual([400, 201008]);
    expect(res.body.extra_message).toEqual(expect.any(String));
    expect((await upload("/api/user/cover", "cover", null, picture("png", 10, 10))).body.code).toBe(201001);
  });
});

describe("DELETE /api/user/cover and /api/users/{user_id}/cover", () => {
  it("resets the caller's cover to the site default and deletes the files", async () => {
    const user = await createUser();
    const uploaded = (await upload("/api/user/cover", "cover", user, picture("png", 700, 400))).body.data as Urls;
    const res = await del("/api/user/cover", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      original: `${BASE}/static/default/user_cover.jpg`,
      small: `${BASE}/static/default/user_cover_small.jpg`,
      middle: `${BASE}/static/default/user_cover_middle.jpg`,
      large: `${BASE}/static/default/user_cover_large.jpg`,
    });
    expect(await column(user.user_id, "cover")).toBe("");
    await expectGone(uploaded);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
  });

  it("lets an administrator reset anyone's cover; 201002 for users, 201003 for a missing user", async () => {
    const [admin, user] = [await createAdmin(), await createUser()];
    const uploaded = (await upload("/api/user/cover", "cover", user, picture("jpeg", 700, 400), "image/jpeg")).body
      .data as Urls;
    expect((await del(`/api/users/${user.user_id}/cover`, { token: user.token })).body.code).toBe(201002);
    const res = await del(`/api/users/${user.user_id}/cover`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.original).toBe(`${BASE}/static/default/user_cover.jpg`);
    await expectGone(uploaded);
    const missing = await del("/api/users/999999/cover", { token: admin.token });
    expect([missing.status, missing.body.code]).toEqual([404, 201003]);
  });
});

describe("the default avatar of a new account", () => {
  it("is generated at registration: a 256x256 PNG in every avatar size, named in users.avatar", async () => {
    const email = `${uniqueName("a")}@example.test`;
    expect((await post("/api/user/register/email", { body: { email } })).status).toBe(200);
    const code = await codeFromMail(email);
    const username = uniqueName("Zed");
    const res = await post("/api/users", { body: { email, email_code: code, username, password: "pw secret" } });
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    const { user_id, avatar } = res.body.data as { user_id: number; avatar: Urls };
    const stored = await column(user_id, "avatar");
    expect(stored).toMatch(new RegExp(`^${await ownerFolder("user-avatar", user_id)}/[0-9a-f]{32}\\.png$`));
    expect(avatar.original).toBe(`${BASE}/upload/${stored}`);
    await expectStoredSet(avatar, AVATAR, "png", [256, 256]);
  });

  it("keeps the static default for accounts made otherwise (factories, the first administrator)", async () => {
    const user = await createUser();
    const me = await get("/api/user", { token: user.token });
    expect(me.body.data.avatar.original).toBe(`${BASE}/static/default/avatar.png`);
  });
});

describe("defaultAvatarPixels", () => {
  const at = (rgba: Uint8Array, x: number, y: number) =>
    Array.from(rgba.slice((y * 256 + x) * 4, (y * 256 + x) * 4 + 4));

  it("draws a coloured circle on a transparent square, the same colour for the same name", () => {
    const rgba = defaultAvatarPixels("alice");
    expect(at(rgba, 0, 0)[3]).toBe(0);
    expect(at(rgba, 255, 255)[3]).toBe(0);
    const edge = at(rgba, 128, 10);
    expect(edge[3]).toBe(255);
    expect(edge.slice(0, 3)).not.toEqual([255, 255, 255]);
    expect(at(defaultAvatarPixels("alice"), 128, 10)).toEqual(edge);
  });

  it("writes the upper-cased initial in white, and draws accented Latin letters without the accent", () => {
    const white = (rgba: Uint8Array) =>
      Array.from({ length: 256 * 256 }, (_, p) => p).filter(
        (p) => rgba[p * 4] === 255 && rgba[p * 4 + 1] === 255 && rgba[p * 4 + 2] === 255,
      ).length;
    expect(white(defaultAvatarPixels("lee"))).toBeGreaterThan(1000);
    expect(white(defaultAvatarPixels("lee"))).toBe(white(defaultAvatarPixels("Lee")));
    expect(white(defaultAvatarPixels("émile"))).toBe(white(defaultAvatarPixels("Emile")));
    // No built-in glyph for CJK: the circle alone.
    expect(white(defaultAvatarPixels("张三"))).toBe(0);
  });
});
