/**
 * MDClub's original settings names and values against this API's neutral ones (docs/options.md#renamed-vendor-fields;
 * MDClub's names are those of its `mc_option` table and of the `mdclub-openapi` 1.0.2 package). The spec replaced
 * brand names with neutral words; MDClub's admin front end, its dumps (docs/migrating-from-mdclub.md) and
 * `MDCLUB_COMPAT` deployments still speak the originals. This is the one table of the renames: `PATCH /api/options`
 * reads bodies through it, `MDCLUB_COMPAT` answers through it, and the MDClub importer maps `mc_option` through it.
 */
const prefixes: readonly (readonly [original: string, neutral: string])[] = [
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

/** The neutral name of a field given under either name (`cache_redis_port` -> `cache_cacheA_port`). */
export function neutralName(name: string): string {
  for (const [original, neutral] of prefixes) {
    if (name.startsWith(original)) return neutral + name.slice(original.length);
  }
  return name;
}

/** MDClub's name of a neutral field (`cache_cacheA_port` -> `cache_redis_port`); other names stay. */
export function originalName(name: string): string {
  for (const [original, neutral] of prefixes) {
    if (name.startsWith(neutral)) return original + name.slice(neutral.length);
  }
  return name;
}

/** The neutral value of a field given MDClub's (`storage_type: "qiniu"` -> `"vendorB"`); other values stay. */
export function neutralValue(field: string, value: unknown): unknown {
  const map = values[neutralName(field)];
  return typeof value === "string" && map && Object.hasOwn(map, value) ? map[value] : value;
}

function originalValue(field: string, value: unknown): unknown {
  const map = values[field];
  if (!map || typeof value !== "string") return value;
  return Object.entries(map).find(([, neutral]) => neutral === value)?.[0] ?? value;
}

/** The body with original names and values in neutral form; when both names of a field are sent, the neutral wins. */
export function toNeutralNames(body: unknown): unknown {
  if (!isRecord(body)) return body;
  // fromEntries defines own properties, so a `__proto__` key stays an ignored unknown field.
  return Object.fromEntries(
    Object.entries(body)
      .filter(([name]) => neutralName(name) === name || !Object.hasOwn(body, neutralName(name)))
      .map(([name, value]) => [neutralName(name), neutralValue(name, value)]),
  );
}

/** A settings record under MDClub's names and values (what its admin front end reads back). */
export function toOriginalNames(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [originalName(name), originalValue(name, value)]),
  );
}

/** The name under which `body` carried the neutral field `field`: the original one if only that was sent. */
export function sentName(field: string, body: unknown): string {
  const original = originalName(field);
  if (original !== field && isRecord(body) && !Object.hasOwn(body, field) && Object.hasOwn(body, original)) {
    return original;
  }
  return field;
}
