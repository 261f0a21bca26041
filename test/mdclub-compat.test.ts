/**
 * MDCLUB_COMPAT (docs/options.md#mdclub-compatibility): MDClub's own admin panel reads and saves the settings under
 * MDClub's original names and values, and every settings page saves unchanged. Without the switch the spec's
 * neutral names stay as they are. The page bodies below are what the admin's forms send: every input of the page,
 * numbers through `parseInt` (an empty input is `null`), read from the record it was shown.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post } from "./helpers/api";
import { createQuestion } from "./helpers/content";
import { createAdmin, createUser, setOptions } from "./helpers/factories";

const COMPAT = { ...env, MDCLUB_COMPAT: "true" };

const STORED = {
  cache_type: "cacheA",
  cache_cacheA_host: "redis.internal",
  cache_cacheA_port: 6380,
  storage_type: "vendorA",
  storage_vendorA_access_id: "AKID",
  storage_vendorA_access_secret: "secret",
  storage_vendorA_bucket: "forum-files",
  storage_vendorA_endpoint: "oss-cn-hangzhou.aliyuncs.com",
  storage_vendorA_dir: "upload",
  storage_vendorB_zone: "z2",
  search_third: "engineA",
};

const pick = (record: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, record[name]]));

/** The cache page's form: the Redis and Memcached inputs are always sent, hidden or not. */
const CACHE_PAGE = [
  "cache_prefix",
  "cache_type",
  ...["redis", "memcached"].flatMap((c) => ["host", "username", "password", "port"].map((f) => `cache_${c}_${f}`)),
];
/** The upload page's form: every storage backend's inputs. */
const UPLOAD_PAGE = [
  "storage_url",
  "storage_type",
  "storage_local_dir",
  ...["ssl", "host", "port", "username", "password", "dir", "passive"].map((f) => `storage_ftp_${f}`),
  ...["host", "port", "username", "password", "dir"].map((f) => `storage_sftp_${f}`),
  ...["access_id", "access_secret", "bucket", "endpoint", "dir"].map((f) => `storage_aliyun_${f}`),
  ...["bucket", "operator", "password", "dir"].map((f) => `storage_upyun_${f}`),
  ...["access_id", "access_secret", "bucket", "zone", "dir"].map((f) => `storage_qiniu_${f}`),
];

async function adminWithSettings() {
  await setOptions(STORED);
  return createAdmin();
}

describe("MDCLUB_COMPAT=true", () => {
  it("answers an administrator the settings under MDClub's original names and values", async () => {
    const admin = await adminWithSettings();
    const res = await get("/api/options", { token: admin.token, env: COMPAT });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      cache_type: "redis",
      cache_redis_host: "redis.internal",
      cache_redis_port: 6380,
      cache_memcached_port: 11211,
      storage_type: "aliyun",
      storage_aliyun_bucket: "forum-files",
      storage_qiniu_zone: "z2",
      storage_upyun_bucket: "",
      search_third: "google",
    });
    const names = Object.keys(res.body.data);
    expect(names.filter((name) => /cacheA|cacheB|vendor[ABC]/.test(name))).toEqual([]);
  });

  it("shows anonymous readers the search engine under its original value too", async () => {
    await setOptions(STORED);
    const res = await get("/api/options", { env: COMPAT });
    expect(res.body.data.search_third).toBe("google");
  });

  it("changes nothing when the whole record read is sent back", async () => {
    const admin = await adminWithSettings();
    const before = (await get("/api/options", { token: admin.token, env: COMPAT })).body.data;
    const saved = await patch("/api/options", { token: admin.token, env: COMPAT, body: before });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(before);
    expect((await get("/api/options", { token: admin.token, env: COMPAT })).body.data).toEqual(before);
    // The stored record is still the neutral one the API serves without the switch.
    expect((await get("/api/options", { token: admin.token })).body.data).toMatchObject(STORED);
  });

  it("saves the cache page unchanged although it sends the hidden Memcached port as null", async () => {
    const admin = await adminWithSettings();
    const before = (await get("/api/options", { token: admin.token, env: COMPAT })).body.data;
    const body = { ...pick(before, CACHE_PAGE), cache_memcached_port: null, cache_redis_port: null };
    const saved = await patch("/api/options", { token: admin.token, env: COMPAT, body });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(before);
  });

  it("saves the upload page unchanged: the stored storage settings stay", async () => {
    const admin = await adminWithSettings();
    const before = (await get("/api/options", { token: admin.token, env: COMPAT })).body.data;
    const saved = await patch("/api/options", { token: admin.token, env: COMPAT, body: pick(before, UPLOAD_PAGE) });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(before);
    expect((await get("/api/options", { token: admin.token })).body.data).toMatchObject({
      storage_type: "vendorA",
      storage_vendorA_bucket: "forum-files",
    });
  });

  it("writes a change made under the original names", async () => {
    const admin = await adminWithSettings();
    const body = { storage_type: "qiniu", storage_qiniu_bucket: "b2", search_third: "baidu" };
    const saved = await patch("/api/options", { token: admin.token, env: COMPAT, body });
    expect(saved.body.data).toMatchObject(body);
    expect((await get("/api/options", { token: admin.token })).body.data).toMatchObject({
      storage_type: "vendorB",
      storage_vendorB_bucket: "b2",
      search_third: "engineE",
    });
  });

  it("answers errors with HTTP 200, naming the field as sent", async () => {
    const admin = await adminWithSettings();
    const bad = await patch("/api/options", { token: admin.token, env: COMPAT, body: { cache_redis_port: 0 } });
    expect(bad).toMatchObject({
      status: 200,
      body: { code: 200001, errors: { cache_redis_port: expect.any(String) } },
    });
    const anonymous = await get("/api/user", { env: COMPAT });
    expect(anonymous).toMatchObject({ status: 200, body: { code: 201001 } });
  });
});

/**
 * The spec's User record as MDClub's front ends read it (its Transformer's fields): private messages add fields to
 * the caller's own record, and change none of these.
 */
const SPEC_USER: Record<string, string> = {
  user_id: "number",
  username: "string",
  email: "string",
  avatar: "object",
  cover: "object",
  create_ip: "string",
  create_location: "string",
  last_login_time: "number",
  last_login_ip: "string",
  last_login_location: "string",
  follower_count: "number",
  followee_count: "number",
  following_article_count: "number",
  following_question_count: "number",
  following_topic_count: "number",
  article_count: "number",
  question_count: "number",
  answer_count: "number",
  notification_unread: "number",
  inbox_unread: "number",
  headline: "string",
  bio: "string",
  blog: "string",
  company: "string",
  location: "string",
  create_time: "number",
  update_time: "number",
  disable_time: "number",
};

describe("private messages under MDCLUB_COMPAT=true (docs/messages.md#mdclub-compatibility)", () => {
  it("keeps every field of the caller's record with its type; inbox_unread counts their unread messages", async () => {
    const [sender, member] = [await createUser(), await createUser()];
    await post(`/api/inbox/${member.user_id}`, { token: sender.token, env: COMPAT, body: { content_markdown: "hi" } });
    const own = await get("/api/user", { token: member.token, env: COMPAT });
    const types = Object.fromEntries(Object.keys(SPEC_USER).map((name) => [name, typeof own.body.data[name]]));
    expect(types).toEqual(SPEC_USER);
    expect(own.body.data.inbox_unread).toBe(1);
    // What a member reads of someone else is what MDClub showed them.
    const other = await get(`/api/users/${member.user_id}`, { token: sender.token, env: COMPAT });
    expect(Object.keys(other.body.data).filter((name) => name.startsWith("inbox_"))).toEqual([]);
  });

  it("keeps MDClub's admin panel's report list to the five kinds it can show", async () => {
    const [sender, member, admin] = [await createUser(), await createUser(), await createAdmin()];
    const question = await createQuestion(sender.user_id);
    const sent = await post(`/api/inbox/${member.user_id}`, { token: sender.token, body: { content_markdown: "hi" } });
    await post(`/api/reports/message:${sent.body.data.message_id}`, { token: member.token, body: { reason: "spam!" } });
    await post(`/api/reports/question:${question}`, { token: member.token, body: { reason: "spam!" } });
    const list = await get("/api/reports", { token: admin.token, env: COMPAT, query: { include: "question" } });
    expect(list.body.data.map((group: { reportable_type: string }) => group.reportable_type)).toEqual(["question"]);
    expect(list.body.pagination.total).toBe(1);
    const all = await get("/api/reports", { token: admin.token });
    expect(all.body.pagination.total).toBe(2);
  });

  it("saves the admin panel's settings pages unchanged with the withdraw settings stored", async () => {
    const admin = await adminWithSettings();
    await patch("/api/options", { token: admin.token, body: { message_can_delete_before: 300 } });
    const record = (await get("/api/options", { token: admin.token, env: COMPAT })).body.data;
    const saved = await patch("/api/options", { token: admin.token, env: COMPAT, body: pick(record, CACHE_PAGE) });
    expect(saved.body.data).toEqual(record);
    expect(saved.body.data.message_can_delete_before).toBe(300);
  });
});

describe("without MDCLUB_COMPAT", () => {
  it("keeps the spec's neutral names and values", async () => {
    const admin = await adminWithSettings();
    const res = await get("/api/options", { token: admin.token });
    expect(res.body.data).toMatchObject(STORED);
    expect(Object.keys(res.body.data).filter((name) => /redis|memcached|aliyun|qiniu|upyun/.test(name))).toEqual([]);
  });

  it("changes nothing when the record read is sent back, and refuses a null port", async () => {
    const admin = await adminWithSettings();
    const before = (await get("/api/options", { token: admin.token })).body.data;
    expect((await patch("/api/options", { token: admin.token, body: before })).body.data).toEqual(before);
    const refused = await patch("/api/options", { token: admin.token, body: { cache_cacheA_port: null } });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 200001, errors: { cache_cacheA_port: expect.any(String) } },
    });
  });
});
