/**
 * Stored files served from R2 at /upload/ and the generated default images at /static/default/
 * (docs/decisions.md#file-urls-change-with-the-file, Platform): the right Content-Type, an ETag, a year's cache for
 * stored files, 304 on a matching If-None-Match.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Photon } from "../src/lib/images/photon";
import { IMMUTABLE } from "../src/lib/storage";
import { decoded, fetchFile, picture } from "./fixtures/pictures";
import { BASE, get, post } from "./helpers/api";
import { createUser, setOptions } from "./helpers/factories";

const PATH = "image/2026-11/22/ab/ab0123456789abcdef0123456789abcd.png";

async function storePicture(path = PATH) {
  const bytes = picture("png", 40, 30);
  const object = await env.BUCKET.put(path, bytes, {
    httpMetadata: { contentType: "image/png", cacheControl: IMMUTABLE },
  });
  return { bytes, etag: object!.httpEtag };
}

describe("GET /upload/{path}", () => {
  it("streams the stored file with its type, ETag and a year's cache, without touching D1", async () => {
    const { bytes, etag } = await storePicture();
    const { res, bytes: body } = await fetchFile(`${BASE}/upload/${PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("server-timing")).toMatch(/"0 round trips"/);
    expect(body).toEqual(bytes);
  });

  it("answers HEAD with the headers and no body", async () => {
    const { bytes, etag } = await storePicture();
    const { res, bytes: body } = await fetchFile(`${BASE}/upload/${PATH}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(body).toHaveLength(0);
  });

  it("answers 304 with no body when If-None-Match holds the ETag, in any of its forms", async () => {
    const { etag } = await storePicture();
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const { res, bytes } = await fetchFile(`${BASE}/upload/${PATH}`, { headers: { "if-none-match": header } });
      expect(res.status, header).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(IMMUTABLE);
      expect(bytes).toHaveLength(0);
    }
  });

  it("sends the file when If-None-Match holds another tag", async () => {
    const { bytes } = await storePicture();
    const { res, bytes: body } = await fetchFile(`${BASE}/upload/${PATH}`, { headers: { "if-none-match": '"stale"' } });
    expect(res.status).toBe(200);
    expect(body).toEqual(bytes);
  });

  it("answers 404 with code 200005 in JSON for a missing file or a folder that is not public", async () => {
    await storePicture("private/backup.png");
    for (const path of [PATH, "private/backup.png", ""]) {
      const res = await get(`/upload/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe(200005);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("serves what POST /api/images stored, at the URLs of its record", async () => {
    const user = await createUser();
    const form = new FormData();
    form.append("image", new File([picture("jpeg", 900, 600)], "a.jpg", { type: "image/jpeg" }));
    const uploaded = await post("/api/images", { token: user.token, rawBody: form });
    const thumb = await fetchFile(uploaded.body.data.urls.thumb);
    expect(thumb.res.headers.get("content-type")).toBe("image/jpeg");
    expect(decoded(thumb.bytes)).toEqual({ type: "jpeg", width: 132, height: 88 });
    const etag = thumb.res.headers.get("etag") as string;
    expect((await fetchFile(uploaded.body.data.urls.thumb, { headers: { "if-none-match": etag } })).res.status).toBe(
      304,
    );
  });
});

describe("GET /static/default/{name}", () => {
  const DEFAULTS: [string, string, number, number][] = [
    ["avatar.png", "png", 256, 256],
    ["avatar_small.png", "png", 64, 64],
    ["avatar_middle.png", "png", 128, 128],
    ["avatar_large.png", "png", 256, 256],
    ["user_cover.jpg", "jpeg", 1450, 812],
    ["user_cover_small.jpg", "jpeg", 600, 336],
    ["user_cover_middle.webp", "webp", 1050, 588],
    ["user_cover_large.jpg", "jpeg", 1450, 812],
    ["topic_cover.webp", "webp", 1080, 606],
    ["topic_cover_small.jpg", "jpeg", 360, 202],
    ["topic_cover_middle.jpg", "jpeg", 720, 404],
    ["topic_cover_large.jpg", "jpeg", 1080, 606],
  ];

  it.each(DEFAULTS)("serves %s as a real %s image of %ix%i", async (name, type, width, height) => {
    const { res, bytes } = await fetchFile(`${BASE}/static/default/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(`image/${type}`);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d{7,}$/);
    expect(decoded(bytes)).toEqual({ type, width, height });
    const etag = res.headers.get("etag") as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetchFile(`${BASE}/static/default/${name}`, { headers: { "if-none-match": etag } });
    expect(again.res.status).toBe(304);
    expect(again.bytes).toHaveLength(0);
  });

  it("draws the default avatar as a circle on a transparent square", async () => {
    const { bytes } = await fetchFile(`${BASE}/static/default/avatar_small.png`);
    const photon = new Photon();
    const rgba = photon.pixels(photon.decode(bytes));
    const alphaAt = (x: number, y: number) => rgba[(y * 64 + x) * 4 + 3];
    expect([alphaAt(0, 0), alphaAt(32, 32)]).toEqual([0, 255]);
  });

  it("answers 404 with code 200005 for any other name", async () => {
    for (const name of ["avatar.jpg", "user_cover_huge.jpg", "constructor.png", "logo.png", "avatar.png.png"]) {
      const res = await get(`/static/default/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.code).toBe(200005);
    }
  });

  it("is where records point when a user has no avatar or cover, unless site_static_url says otherwise", async () => {
    const user = await createUser();
    const own = await get(`/api/users/${user.user_id}`);
    expect(own.body.data.avatar.small).toBe(`${BASE}/static/default/avatar_small.png`);
    expect(own.body.data.cover.original).toBe(`${BASE}/static/default/user_cover.jpg`);
    for (const url of [...Object.values(own.body.data.avatar), ...Object.values(own.body.data.cover)] as string[]) {
      expect((await fetchFile(url)).res.status, url).toBe(200);
    }
    await setOptions({ site_static_url: "https://static.example.test/" });
    const moved = await get(`/api/users/${user.user_id}`);
    expect(moved.body.data.avatar.original).toBe("https://static.example.test/default/avatar.png");
  });
});
