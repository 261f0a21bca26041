/**
 * Input aliases for the original MDClub option names and values (docs/options.md#renamed-vendor-fields; the real names
 * are those of the `mdclub-openapi` 1.0.2 package). The spec replaced brand names with neutral words, but admin
 * front ends written for MDClub still send `cache_redis_port` or `storage_type: "qiniu"`. PATCH accepts both
 * forms; only the spec's names are stored and returned, and a field error is reported under the name the
 * client sent, so such a front end can show it next to its own input.
 */
const prefixes: readonly (readonly [legacy: string, spec: string])[] = [
  ["cache_redis_", "cache_cacheA_"],
  ["cache_memcached_", "cache_cacheB_"],
  ["storage_aliyun_", "storage_vendorA_"],
  ["storage_qiniu_", "storage_vendorB_"],
  ["storage_upyun_", "storage_vendorC_"],
];

/** Value renames per field; the search engines keep MDClub's enum order (google, bing, sogou, 360, baidu). */
const values: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cache_type: { redis: "cacheA", memcached: "cacheB" },
  storage_type: { aliyun: "vendorA", qiniu: "vendorB", upyun: "vendorC" },
  search_third: { google: "engineA", bing: "engineB", sogou: "engineC", "360": "engineD", baidu: "engineE" },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function specName(name: string): string {
  for (const [legacy, spec] of prefixes) {
    if (name.startsWith(legacy)) return spec + name.slice(legacy.length);
  }
  return name;
}

function legacyName(name: string): string | null {
  for (const [legacy, spec] of prefixes) {
    if (name.startsWith(spec)) return legacy + name.slice(spec.length);
  }
  return null;
}

/** The body with legacy names and values in the spec's form. When both names of a field are sent, the spec's wins. */
export function toSpecNames(body: unknown): unknown {
  if (!isRecord(body)) return body;
  // fromEntries defines own properties, so a `__proto__` key stays an ignored unknown field.
  const renamed = Object.fromEntries(
    Object.entries(body)
      .filter(([name]) => specName(name) === name || !Object.hasOwn(body, specName(name)))
      .map(([name, value]) => [specName(name), value]),
  );
  for (const [field, map] of Object.entries(values)) {
    const value = renamed[field];
    if (typeof value === "string" && Object.hasOwn(map, value)) renamed[field] = map[value];
  }
  return renamed;
}

/** The name under which `body` carried the spec field `field`: the legacy one if only that was sent. */
export function sentName(field: string, body: unknown): string {
  const legacy = legacyName(field);
  if (legacy && isRecord(body) && !Object.hasOwn(body, field) && Object.hasOwn(body, legacy)) return legacy;
  return field;
}
