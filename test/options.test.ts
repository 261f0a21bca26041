/**
 * Site settings (spec operation 1, docs/options.md): who sees and changes what, every validation rule of the
 * record, the KV read path, and the original MDClub names accepted as aliases.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch } from "./helpers/api";
import { createAdmin, createToken, createUser, setOptions } from "./helpers/factories";

// The field lists are copied from the spec's "Site settings (option record)" section, not from the code.
const PERMISSION_FIELDS = ["answer", "article", "comment", "question"].flatMap((kind) =>
  ["edit", "delete"].flatMap((action) => [
    `${kind}_can_${action}`,
    `${kind}_can_${action}_before`,
    ...(kind === "comment" ? [] : [`${kind}_can_${action}_only_no_comment`]),
    ...(kind === "question" ? [`${kind}_can_${action}_only_no_answer`] : []),
  ]),
);
/** Beyond the spec, public as the content permissions are: a sender's withdraw window (docs/messages.md). */
const MESSAGE_FIELDS = ["message_can_delete", "message_can_delete_before"];
const PUBLIC_FIELDS = [
  ...PERMISSION_FIELDS,
  ...MESSAGE_FIELDS,
  "site_name",
  "site_description",
  "site_keywords",
  "site_icp_beian",
  "site_gongan_beian",
  "language",
  "search_type",
  "search_third",
];
const RESTRICTED_FIELDS = [
  "theme",
  "site_static_url",
  "cache_type",
  "cache_prefix",
  ...["cacheA", "cacheB"].flatMap((c) => ["host", "username", "password", "port"].map((f) => `cache_${c}_${f}`)),
  "smtp_host",
  "smtp_username",
  "smtp_password",
  "smtp_reply_to",
  "smtp_port",
  "smtp_secure",
  "storage_type",
  "storage_url",
  "storage_local_dir",
  ...["host", "username", "password", "dir", "port", "passive", "ssl"].map((f) => `storage_ftp_${f}`),
  ...["host", "username", "password", "dir", "port"].map((f) => `storage_sftp_${f}`),
  ...["access_id", "access_secret", "bucket", "dir", "endpoint"].map((f) => `storage_vendorA_${f}`),
  ...["access_id", "access_secret", "bucket", "dir", "zone"].map((f) => `storage_vendorB_${f}`),
  ...["bucket", "dir", "operator", "password"].map((f) => `storage_vendorC_${f}`),
];
const ALL_FIELDS = [...PUBLIC_FIELDS, ...RESTRICTED_FIELDS];

const BOOLEAN_FIELDS = [
  ...PERMISSION_FIELDS.filter((name) => !name.endsWith("_before")),
  "message_can_delete",
  "storage_ftp_passive",
  "storage_ftp_ssl",
];
const SECONDS_FIELDS = [...PERMISSION_FIELDS, ...MESSAGE_FIELDS].filter((name) => name.endsWith("_before"));
const PORT_FIELDS = ["cache_cacheA_port", "cache_cacheB_port", "smtp_port", "storage_ftp_port", "storage_sftp_port"];
const INTEGER_FIELDS = [...SECONDS_FIELDS, ...PORT_FIELDS];
const ENUMS: Record<string, string[]> = {
  language: ["en", "pl", "ru", "zh-CN", "zh-TW"],
  search_type: ["third"],
  search_third: ["engineA", "engineB", "engineC", "engineD", "engineE"],
  cache_type: ["pdo", "cacheA", "cacheB"],
  smtp_secure: ["ssl", "tls", ""],
  storage_type: ["local", "ftp", "sftp", "vendorA", "vendorC", "vendorB"],
  // '' is the install default (docs/options.md), so it must survive a round trip.
  storage_vendorB_zone: ["z0", "z1", "z2", "na0", "as0", ""],
};
const URL_FIELDS = ["site_static_url", "storage_url"];
const STRING_FIELDS = ALL_FIELDS.filter((name) => !BOOLEAN_FIELDS.includes(name) && !INTEGER_FIELDS.includes(name));
const FREE_TEXT_FIELDS = STRING_FIELDS.filter(
  (name) => !(name in ENUMS) && !URL_FIELDS.includes(name) && !["cache_prefix", "smtp_reply_to"].includes(name),
);

/** docs/options.md install values, with the module's two documented changes (standard ports, passive FTP). */
const DEFAULTS: Record<string, unknown> = {
  ...Object.fromEntries(PERMISSION_FIELDS.map((name) => [name, name.endsWith("_before") ? 0 : false])),
  answer_can_delete_only_no_comment: true,
  article_can_edit_only_no_comment: true,
  article_can_delete_only_no_comment: true,
  question_can_edit_only_no_comment: true,
  question_can_delete_only_no_comment: true,
  question_can_edit_only_no_answer: true,
  question_can_delete_only_no_answer: true,
  message_can_delete: true,
  message_can_delete_before: 120,
  language: "zh-CN",
  search_type: "third",
  search_third: "engineB",
  site_name: "MDClub",
  site_description: "MDClub 是一个 Material Design 样式的社区。",
  site_keywords: "Material Design,MDUI",
  site_icp_beian: "",
  site_gongan_beian: "",
  theme: "material",
  site_static_url: "",
  cache_type: "pdo",
  cache_prefix: "mdclub.",
  cache_cacheA_host: "",
  cache_cacheA_username: "",
  cache_cacheA_password: "",
  cache_cacheA_port: 6379,
  cache_cacheB_host: "",
  cache_cacheB_username: "",
  cache_cacheB_password: "",
  cache_cacheB_port: 11211,
  smtp_host: "",
  smtp_username: "",
  smtp_password: "",
  smtp_reply_to: "",
  smtp_port: 465,
  smtp_secure: "ssl",
  storage_type: "local",
  storage_url: "",
  storage_local_dir: "",
  storage_ftp_host: "",
  storage_ftp_username: "",
  storage_ftp_password: "",
  storage_ftp_dir: "",
  storage_ftp_port: 21,
  storage_ftp_passive: true,
  storage_ftp_ssl: false,
  storage_sftp_host: "",
  storage_sftp_username: "",
  storage_sftp_password: "",
  storage_sftp_dir: "",
  storage_sftp_port: 22,
  storage_vendorA_access_id: "",
  storage_vendorA_access_secret: "",
  storage_vendorA_bucket: "",
  storage_vendorA_dir: "",
  storage_vendorA_endpoint: "",
  storage_vendorB_access_id: "",
  storage_vendorB_access_secret: "",
  storage_vendorB_bucket: "",
  storage_vendorB_dir: "",
  storage_vendorB_zone: "",
  storage_vendorC_bucket: "",
  storage_vendorC_dir: "",
  storage_vendorC_operator: "",
  storage_vendorC_password: "",
};

const sorted = (names: Iterable<string>) => [...names].sort();

async function storedRows(): Promise<Record<string, unknown>> {
  const { results } = await env.DB.prepare("SELECT name, value FROM options").all<{ name: string; value: string }>();
  return Object.fromEntries(results.map((row) => [row.name, JSON.parse(row.value)]));
}

/** PATCHes as a fresh administrator. */
async function patchAsAdmin(body: unknown) {
  const admin = await createAdmin();
  return patch("/api/options", { token: admin.token, body });
}

/** PATCHes `body`, expects a 200001 naming exactly `fields`, and checks that neither D1 nor the record changed. */
async function expectRefused(body: Record<string, unknown>, fields = Object.keys(body)) {
  const admin = await createAdmin();
  const before = await get("/api/options", { token: admin.token });
  const rowsBefore = await storedRows();
  const res = await patch("/api/options", { token: admin.token, body });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(200001);
  expect(sorted(Object.keys(res.body.errors))).toEqual(sorted(fields));
  for (const field of fields) expect(typeof res.body.errors[field]).toBe("string");
  expect(await storedRows()).toEqual(rowsBefore);
  const after = await get("/api/options", { token: admin.token });
  expect(after.body.data).toEqual(before.body.data);
}

/** PATCHes `body` and expects every value back in the record and in D1. */
async function expectAccepted(body: Record<string, unknown>) {
  const res = await patchAsAdmin(body);
  expect(res.status).toBe(200);
  expect(res.body.code).toBe(0);
  for (const [field, value] of Object.entries(body)) expect(res.body.data[field]).toEqual(value);
  const rows = await storedRows();
  for (const [field, value] of Object.entries(body)) expect(rows[field]).toEqual(value);
}

describe("GET /api/options", () => {
  it("gives an anonymous caller exactly the 34 public fields", async () => {
    const res = await get("/api/options");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(PUBLIC_FIELDS).toHaveLength(34);
    expect(sorted(Object.keys(res.body.data))).toEqual(sorted(PUBLIC_FIELDS));
  });

  it("gives a normal user exactly the 34 public fields", async () => {
    const user = await createUser();
    const res = await get("/api/options", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(sorted(Object.keys(res.body.data))).toEqual(sorted(PUBLIC_FIELDS));
  });

  it("gives an administrator every field of the record", async () => {
    const admin = await createAdmin();
    const res = await get("/api/options", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(sorted(Object.keys(res.body.data))).toEqual(sorted(ALL_FIELDS));
  });

  it("answers the defaults on a fresh install", async () => {
    // The test setup stores SMTP settings for the mail tests; a fresh install has none.
    await env.DB.prepare("DELETE FROM options").run();
    const admin = await createAdmin();
    const res = await get("/api/options", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual(DEFAULTS);
  });

  it("reads the settings from KV with no D1 round trip once cached", async () => {
    await setOptions({ site_name: "From D1" });
    const miss = await get("/api/options");
    expect(miss.status).toBe(200);
    expect(miss.body.data.site_name).toBe("From D1");
    expect(miss.roundTrips).toBe(1);

    const hit = await get("/api/options");
    expect(hit.status).toBe(200);
    expect(hit.body.data.site_name).toBe("From D1");
    expect(hit.roundTrips).toBe(0);
  });

  it("ignores a stored row that is not a valid value and keeps the default", async () => {
    await setOptions({ smtp_port: "25", site_name: 7 });
    const admin = await createAdmin();
    const res = await get("/api/options", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.smtp_port).toBe(465);
    expect(res.body.data.site_name).toBe("MDClub");
  });
});

describe("PATCH /api/options: access", () => {
  it("refuses an anonymous caller with 201001", async () => {
    const res = await patch("/api/options", { body: { site_name: "X" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
    expect((await storedRows()).site_name).toBeUndefined();
  });

  it("refuses a normal user with 201002", async () => {
    const user = await createUser();
    const res = await patch("/api/options", { token: user.token, body: { site_name: "X" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
    expect((await storedRows()).site_name).toBeUndefined();
  });

  it("refuses a disabled user's token with 201001", async () => {
    const user = await createUser({ disabled: true });
    const res = await patch("/api/options", { token: await createToken(user.user_id), body: { site_name: "X" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("refuses a disabled administrator's token with 201001", async () => {
    const admin = await createAdmin({ disabled: true });
    const res = await patch("/api/options", { token: await createToken(admin.user_id), body: { site_name: "X" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(201001);
  });

  it("checks access before the fields", async () => {
    const user = await createUser();
    const res = await patch("/api/options", { token: user.token, body: { smtp_port: 0 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(201002);
  });

  it("accepts an administrator's bearer token", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", { bearer: admin.token, body: { site_name: "Bearer" } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.site_name).toBe("Bearer");
  });
});

describe("PATCH /api/options: result", () => {
  it("returns the full record with the change and stores only the fields sent", async () => {
    const before = await storedRows();
    const res = await patchAsAdmin({ site_name: "Changed", question_can_edit: true });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(sorted(Object.keys(res.body.data))).toEqual(sorted(ALL_FIELDS));
    expect(res.body.data.site_name).toBe("Changed");
    expect(res.body.data.question_can_edit).toBe(true);
    expect(await storedRows()).toEqual({ ...before, site_name: "Changed", question_can_edit: true });
  });

  it("ignores unknown fields", async () => {
    const admin = await createAdmin();
    const res = await patch("/api/options", {
      token: admin.token,
      // Raw, because an object literal would turn `__proto__` into a prototype instead of a field.
      rawBody: '{"site_name": "Known", "no_such_option": 1, "__proto__": {"theme": "evil"}}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.site_name).toBe("Known");
    expect(res.body.data.theme).toBe("material");
    expect(res.body.data).not.toHaveProperty("no_such_option");
    expect(await storedRows()).not.toHaveProperty("no_such_option");
  });

  it("shows the change to the next reader from KV, with no D1 round trip", async () => {
    const res = await patchAsAdmin({ site_name: "Written through", storage_vendorB_zone: "z2" });
    expect(res.status).toBe(200);
    const anonymous = await get("/api/options");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.site_name).toBe("Written through");
    expect(anonymous.roundTrips).toBe(0);
  });

  it("reloads the record from D1 in one round trip when KV has lost it", async () => {
    const admin = await createAdmin();
    await patch("/api/options", { token: admin.token, body: { site_name: "Persisted" } });
    await env.KV.delete("options:v1");
    const miss = await get("/api/options");
    expect(miss.status).toBe(200);
    expect(miss.body.data.site_name).toBe("Persisted");
    expect(miss.roundTrips).toBe(1);
    const hit = await get("/api/options");
    expect(hit.body.data.site_name).toBe("Persisted");
    expect(hit.roundTrips).toBe(0);
  });

  it("accepts the whole record sent back unchanged", async () => {
    const admin = await createAdmin();
    const record = (await get("/api/options", { token: admin.token })).body.data;
    const res = await patch("/api/options", { token: admin.token, body: record });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual(record);
  });

  it("treats an empty JSON body as no change", async () => {
    const admin = await createAdmin();
    const before = await get("/api/options", { token: admin.token });
    const res = await patch("/api/options", {
      token: admin.token,
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual(before.body.data);
  });

  it("refuses a body that is not an object", async () => {
    const res = await patchAsAdmin(["site_name"]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(200001);
    expect(res.body.errors.body).toEqual(expect.any(String));
  });
});

describe("PATCH /api/options: validation", () => {
  it("refuses strings and numbers in every boolean field, naming each", async () => {
    await expectRefused(Object.fromEntries(BOOLEAN_FIELDS.map((name) => [name, "true"])));
    await expectRefused(Object.fromEntries(BOOLEAN_FIELDS.map((name) => [name, 1])));
    await expectRefused(Object.fromEntries(BOOLEAN_FIELDS.map((name) => [name, null])));
  });

  it("accepts JSON booleans in every boolean field", async () => {
    await expectAccepted(Object.fromEntries(BOOLEAN_FIELDS.map((name) => [name, true])));
    await expectAccepted(Object.fromEntries(BOOLEAN_FIELDS.map((name) => [name, false])));
  });

  it("refuses numeric strings and fractions in every integer field", async () => {
    await expectRefused(Object.fromEntries(INTEGER_FIELDS.map((name) => [name, "5"])));
    await expectRefused(Object.fromEntries(INTEGER_FIELDS.map((name) => [name, 1.5])));
    await expectRefused(Object.fromEntries(INTEGER_FIELDS.map((name) => [name, true])));
  });

  it("refuses a negative number of seconds", async () => {
    await expectRefused(Object.fromEntries(SECONDS_FIELDS.map((name) => [name, -1])));
  });

  it("accepts 0 seconds (no limit) and the largest 32-bit integer", async () => {
    await expectAccepted(Object.fromEntries(SECONDS_FIELDS.map((name) => [name, 0])));
    await expectAccepted(Object.fromEntries(SECONDS_FIELDS.map((name) => [name, 2_147_483_647])));
    await expectRefused({ answer_can_edit_before: 2_147_483_648 });
  });

  it.each([0, 65536, -1])("refuses port %s in all five port fields", async (value) => {
    await expectRefused(Object.fromEntries(PORT_FIELDS.map((name) => [name, value])));
  });

  it.each([1, 65535])("accepts port %s in all five port fields", async (value) => {
    await expectAccepted(Object.fromEntries(PORT_FIELDS.map((name) => [name, value])));
  });

  it.each(Object.entries(ENUMS))("accepts every allowed value of %s", async (field, values) => {
    for (const value of values) await expectAccepted({ [field]: value });
  });

  it.each(Object.keys(ENUMS))("refuses a value outside the enum of %s", async (field) => {
    await expectRefused({ [field]: "nope" });
  });

  it("refuses enum values with the wrong case or type", async () => {
    await expectRefused({
      language: "zh-cn",
      smtp_secure: "SSL",
      storage_type: "Local",
      storage_vendorB_zone: "Z0",
      cache_type: 0,
    });
  });

  it("refuses a cache prefix outside -+.A-Za-z0-9", async () => {
    await expectRefused({ cache_prefix: "mc_" });
    await expectRefused({ cache_prefix: "a b" });
    await expectRefused({ cache_prefix: "café" });
  });

  it("accepts a cache prefix of the allowed characters, up to 100 of them", async () => {
    await expectAccepted({ cache_prefix: "a-b+c.D9" });
    await expectAccepted({ cache_prefix: "" });
    await expectAccepted({ cache_prefix: "x".repeat(100) });
    await expectRefused({ cache_prefix: "x".repeat(101) });
  });

  it("refuses a reply-to that is not an e-mail address", async () => {
    await expectRefused({ smtp_reply_to: "not-an-address" });
    await expectRefused({ smtp_reply_to: "a b@example.com" });
  });

  it("accepts an e-mail address or an empty reply-to", async () => {
    await expectAccepted({ smtp_reply_to: "noreply@example.com" });
    await expectAccepted({ smtp_reply_to: "" });
  });

  it("refuses URL fields that are not http(s) URLs", async () => {
    await expectRefused(Object.fromEntries(URL_FIELDS.map((name) => [name, "cdn.example.com/static"])));
    await expectRefused(Object.fromEntries(URL_FIELDS.map((name) => [name, "javascript:alert(1)"])));
    await expectRefused(Object.fromEntries(URL_FIELDS.map((name) => [name, "ftp://example.com/"])));
  });

  it("accepts http(s) URLs and empty URL fields", async () => {
    await expectAccepted(Object.fromEntries(URL_FIELDS.map((name) => [name, "https://cdn.example.com/static"])));
    await expectAccepted(Object.fromEntries(URL_FIELDS.map((name) => [name, "http://127.0.0.1:8787/upload"])));
    await expectAccepted(Object.fromEntries(URL_FIELDS.map((name) => [name, ""])));
  });

  it("refuses non-strings in every string field", async () => {
    await expectRefused(Object.fromEntries(STRING_FIELDS.map((name) => [name, 5])));
    await expectRefused(Object.fromEntries(STRING_FIELDS.map((name) => [name, null])));
  });

  it("refuses free text over 1000 characters and accepts 1000", async () => {
    await expectRefused(Object.fromEntries(FREE_TEXT_FIELDS.map((name) => [name, "x".repeat(1001)])));
    await expectAccepted(Object.fromEntries(FREE_TEXT_FIELDS.map((name) => [name, "é".repeat(1000)])));
  });

  it("names every bad field of one request and changes none of the good ones", async () => {
    await expectRefused(
      { site_name: "Good", smtp_port: 0, cache_prefix: "mc_", language: "de", question_can_edit: "yes" },
      ["smtp_port", "cache_prefix", "language", "question_can_edit"],
    );
    expect((await storedRows()).site_name).toBeUndefined();
  });
});

describe("PATCH /api/options: original MDClub names", () => {
  it("accepts the original field names and values and answers in the spec's names", async () => {
    const res = await patchAsAdmin({
      cache_type: "redis",
      cache_redis_host: "redis.internal",
      cache_redis_port: 6380,
      cache_memcached_username: "mc",
      storage_type: "qiniu",
      storage_qiniu_zone: "z1",
      storage_aliyun_endpoint: "oss.example.com",
      storage_upyun_operator: "op",
      search_third: "360",
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      cache_type: "cacheA",
      cache_cacheA_host: "redis.internal",
      cache_cacheA_port: 6380,
      cache_cacheB_username: "mc",
      storage_type: "vendorB",
      storage_vendorB_zone: "z1",
      storage_vendorA_endpoint: "oss.example.com",
      storage_vendorC_operator: "op",
      search_third: "engineD",
    });
    expect(Object.keys(res.body.data).filter((name) => /redis|memcached|aliyun|qiniu|upyun/.test(name))).toEqual([]);
    expect(sorted(Object.keys(res.body.data))).toEqual(sorted(ALL_FIELDS));
    expect(await storedRows()).not.toHaveProperty("cache_redis_host");
  });

  it.each([
    ["cache_type", "memcached", "cacheB"],
    ["storage_type", "aliyun", "vendorA"],
    ["storage_type", "upyun", "vendorC"],
    ["search_third", "google", "engineA"],
    ["search_third", "bing", "engineB"],
    ["search_third", "sogou", "engineC"],
    ["search_third", "baidu", "engineE"],
  ])("maps %s %s to %s", async (field, legacy, spec) => {
    const res = await patchAsAdmin({ [field]: legacy });
    expect(res.status).toBe(200);
    expect(res.body.data[field]).toBe(spec);
  });

  it("names a bad field as the client sent it", async () => {
    await expectRefused({ cache_redis_port: 0, storage_qiniu_zone: "z9", smtp_port: 0 });
  });

  it("uses the spec's name when a field is sent under both names", async () => {
    const res = await patchAsAdmin({ cache_redis_host: "legacy", cache_cacheA_host: "spec" });
    expect(res.status).toBe(200);
    expect(res.body.data.cache_cacheA_host).toBe("spec");
  });

  it("shows the original names nowhere in GET", async () => {
    await patchAsAdmin({ cache_redis_host: "redis.internal" });
    const admin = await createAdmin();
    const res = await get("/api/options", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.cache_cacheA_host).toBe("redis.internal");
    expect(res.body.data).not.toHaveProperty("cache_redis_host");
  });
});
