/**
 * Every field of the spec's site settings record: its zod rule (what PATCH enforces), its default, and whether
 * it is public. The defaults are the reference's install values (docs/options.md) with two fixes: ports
 * default to their protocol's standard port instead of the original's 0 (which the 1-65535 rule would refuse
 * when a client sends the record back), and `storage_ftp_passive` is true as the original intended.
 */
import { z } from "zod";

// MDClub checks only the JSON type of each field (docs/options.md); the ranges, enums, charset and formats
// below are the spec's documented constraints, enforced as docs/decisions.md#settings-are-validated asks.
const text = (max = 1000) => z.string({ error: "must be a string" }).max(max, `at most ${max} characters`);
const flag = () => z.boolean({ error: "must be true or false" });
const integer = () => z.number({ error: "must be an integer" }).int("must be an integer");
// Capped at the largest 32-bit integer so clients with 32-bit integer types can read the record back.
const seconds = () => integer().min(0, "must be 0 or more").max(2_147_483_647, "must be at most 2147483647");
const port = () => integer().min(1, "must be 1-65535").max(65535, "must be 1-65535");
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of: ${values.map((v) => v || "''").join(", ")}` });
const url = () =>
  text().refine((v) => v === "" || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v), "must be an http(s) URL or empty");
const address = () =>
  text(320).refine((v) => v === "" || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), "must be an e-mail address or empty");

const permissionKinds = ["answer", "article", "comment", "question"] as const;
const permissionActions = ["edit", "delete"] as const;

type Field = { schema: z.ZodType; default: unknown; public: boolean };

function permissionFields(): Record<string, Field> {
  const fields: Record<string, Field> = {};
  const defaults: Record<string, unknown> = {
    answer_can_delete_only_no_comment: true,
    article_can_edit_only_no_comment: true,
    article_can_delete_only_no_comment: true,
    question_can_edit_only_no_comment: true,
    question_can_delete_only_no_comment: true,
    question_can_edit_only_no_answer: true,
    question_can_delete_only_no_answer: true,
  };
  for (const kind of permissionKinds) {
    for (const action of permissionActions) {
      const base = `${kind}_can_${action}`;
      fields[base] = { schema: flag(), default: false, public: true };
      fields[`${base}_before`] = { schema: seconds(), default: 0, public: true };
      if (kind !== "comment") {
        const name = `${base}_only_no_comment`;
        fields[name] = { schema: flag(), default: defaults[name] ?? false, public: true };
      }
      if (kind === "question") {
        const name = `${base}_only_no_answer`;
        fields[name] = { schema: flag(), default: defaults[name] ?? false, public: true };
      }
    }
  }
  return fields;
}

const pub = (schema: z.ZodType, value: unknown): Field => ({ schema, default: value, public: true });
const restricted = (schema: z.ZodType, value: unknown): Field => ({ schema, default: value, public: false });

export const optionFields: Record<string, Field> = {
  ...permissionFields(),
  // Beyond the spec: a sender withdraws their private message (docs/messages.md#withdrawing-a-message), under the
  // content permissions' rule (docs/permissions.md#author-edit-and-delete-rules), by default within two minutes.
  message_can_delete: pub(flag(), true),
  message_can_delete_before: pub(seconds(), 120),
  site_name: pub(text(), "MDClub"),
  site_description: pub(text(), "MDClub 是一个 Material Design 样式的社区。"),
  site_keywords: pub(text(), "Material Design,MDUI"),
  site_icp_beian: pub(text(), ""),
  site_gongan_beian: pub(text(), ""),
  language: pub(oneOf(["en", "pl", "ru", "zh-CN", "zh-TW"]), "zh-CN"),
  search_type: pub(oneOf(["third"]), "third"),
  search_third: pub(oneOf(["engineA", "engineB", "engineC", "engineD", "engineE"]), "engineB"),

  theme: restricted(text(), "material"),
  site_static_url: restricted(url(), ""),
  cache_type: restricted(oneOf(["pdo", "cacheA", "cacheB"]), "pdo"),
  cache_prefix: restricted(text(100).regex(/^[-+.A-Za-z0-9]*$/, "only the characters - + . A-Z a-z 0-9"), "mdclub."),
  cache_cacheA_host: restricted(text(), ""),
  cache_cacheA_port: restricted(port(), 6379),
  cache_cacheA_username: restricted(text(), ""),
  cache_cacheA_password: restricted(text(), ""),
  cache_cacheB_host: restricted(text(), ""),
  cache_cacheB_port: restricted(port(), 11211),
  cache_cacheB_username: restricted(text(), ""),
  cache_cacheB_password: restricted(text(), ""),
  smtp_host: restricted(text(), ""),
  smtp_port: restricted(port(), 465),
  smtp_username: restricted(text(), ""),
  smtp_password: restricted(text(), ""),
  smtp_reply_to: restricted(address(), ""),
  smtp_secure: restricted(oneOf(["ssl", "tls", ""]), "ssl"),
  storage_type: restricted(oneOf(["local", "ftp", "sftp", "vendorA", "vendorC", "vendorB"]), "local"),
  storage_url: restricted(url(), ""),
  storage_local_dir: restricted(text(), ""),
  storage_ftp_host: restricted(text(), ""),
  storage_ftp_port: restricted(port(), 21),
  storage_ftp_username: restricted(text(), ""),
  storage_ftp_password: restricted(text(), ""),
  storage_ftp_dir: restricted(text(), ""),
  storage_ftp_passive: restricted(flag(), true),
  storage_ftp_ssl: restricted(flag(), false),
  storage_sftp_host: restricted(text(), ""),
  storage_sftp_port: restricted(port(), 22),
  storage_sftp_username: restricted(text(), ""),
  storage_sftp_password: restricted(text(), ""),
  storage_sftp_dir: restricted(text(), ""),
  storage_vendorA_access_id: restricted(text(), ""),
  storage_vendorA_access_secret: restricted(text(), ""),
  storage_vendorA_bucket: restricted(text(), ""),
  storage_vendorA_dir: restricted(text(), ""),
  storage_vendorA_endpoint: restricted(text(), ""),
  storage_vendorB_access_id: restricted(text(), ""),
  storage_vendorB_access_secret: restricted(text(), ""),
  storage_vendorB_bucket: restricted(text(), ""),
  storage_vendorB_dir: restricted(text(), ""),
  // '' is not among the spec's zones but is the install default, so a client can send the record back unchanged.
  storage_vendorB_zone: restricted(oneOf(["z0", "z1", "z2", "na0", "as0", ""]), ""),
  storage_vendorC_bucket: restricted(text(), ""),
  storage_vendorC_dir: restricted(text(), ""),
  storage_vendorC_operator: restricted(text(), ""),
  storage_vendorC_password: restricted(text(), ""),
};

export type SiteOptions = Record<string, unknown> & {
  site_name: string;
  site_static_url: string;
  storage_url: string;
  smtp_host: string;
  smtp_port: number;
  smtp_username: string;
  smtp_password: string;
  smtp_reply_to: string;
  smtp_secure: "ssl" | "tls" | "";
};

export const optionNames = Object.keys(optionFields);
const publicOptionNames = optionNames.filter((name) => optionFields[name]?.public);

export function defaultOptions(): SiteOptions {
  return Object.fromEntries(optionNames.map((name) => [name, optionFields[name]?.default])) as SiteOptions;
}

/** The record a caller may see: everything for administrators, the 34 public fields for the rest. */
export function visibleOptions(all: SiteOptions, isAdmin: boolean): Record<string, unknown> {
  if (isAdmin) return all;
  return Object.fromEntries(publicOptionNames.map((name) => [name, all[name]]));
}

/** Merges stored rows (JSON values) over the defaults; a stored value of the wrong type is ignored. */
export function optionsFromRows(rows: { name: string; value: string }[]): SiteOptions {
  const record = defaultOptions();
  for (const row of rows) {
    const field = optionFields[row.name];
    if (!field) continue;
    try {
      const parsed = field.schema.safeParse(JSON.parse(row.value));
      if (parsed.success) record[row.name] = parsed.data;
    } catch {
      // A hand-edited row that is not JSON keeps the default.
    }
  }
  return record;
}
