/**
 * Pure rules shared by every route: pagination, include, order, id lists, path ids, image URL sets and the error
 * table.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ApiError, errorCodes } from "../src/core/errors";
import { pascal, pathId } from "../src/http/openapi";
import { formatBytes } from "../src/lib/bytes";
import { isPositiveIntString, MAX_IDS, parseIdList } from "../src/lib/ids";
import { imageUrls } from "../src/lib/image-urls";
import { parseInclude } from "../src/lib/include";
import { type OrderRule, parseOrder } from "../src/lib/order";
import { MAX_PAGE, paginate, parsePage } from "../src/lib/pagination";
import { zodToApiError } from "../src/lib/validation";

/** The error `run` throws, for asserting its code and fields. */
function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("parsePage", () => {
  it("defaults to page 1 of 15", () => {
    expect(parsePage({})).toEqual({ page: 1, per_page: 15, offset: 0 });
    expect(parsePage({ page: "", per_page: "" })).toEqual({ page: 1, per_page: 15, offset: 0 });
  });

  it.each([
    ["1", 1],
    ["100", 100],
    ["101", 100],
    ["100000", 100],
    ["0", 1],
    ["-5", 1],
    ["abc", 1],
    ["20abc", 20],
  ])("clamps per_page %s to %s", (perPage, expected) => {
    expect(parsePage({ per_page: perPage }).per_page).toBe(expected);
  });

  it.each([
    ["3", 3],
    ["0", 1],
    ["-1", 1],
    ["abc", 1],
    ["99999999999999999999999", MAX_PAGE],
  ])("turns page %s into %s", (page, expected) => {
    expect(parsePage({ page }).page).toBe(expected);
  });

  it("gives the row offset of the page", () => {
    expect(parsePage({ page: "3", per_page: "20" }).offset).toBe(40);
  });

  it("keeps the offset of the largest page a safe integer", () => {
    expect(Number.isSafeInteger(parsePage({ page: String(Number.MAX_SAFE_INTEGER), per_page: "100" }).offset)).toBe(
      true,
    );
  });
});

describe("paginate", () => {
  it("describes an empty list", () => {
    expect(paginate(parsePage({}), 0)).toEqual({
      page: 1,
      per_page: 15,
      previous: null,
      next: null,
      total: 0,
      pages: 0,
    });
  });

  it("links the first, middle and last pages", () => {
    expect(paginate(parsePage({ page: "1" }), 31)).toMatchObject({ pages: 3, previous: null, next: 2 });
    expect(paginate(parsePage({ page: "2" }), 31)).toMatchObject({ pages: 3, previous: 1, next: 3 });
    expect(paginate(parsePage({ page: "3" }), 31)).toMatchObject({ pages: 3, previous: 2, next: null });
  });

  it("points back from beyond the last page (docs/conventions.md)", () => {
    expect(paginate(parsePage({ page: "9" }), 31)).toMatchObject({ page: 9, previous: 8, next: null });
  });
});

describe("parseInclude", () => {
  const allowed = ["user", "voting"] as const;

  it("keeps the allowed names and ignores unknown ones, blanks and repeats", () => {
    expect([...parseInclude("user, nope,,voting,user,USER", allowed)].sort()).toEqual(["user", "voting"]);
  });

  it("is empty without a value", () => {
    expect(parseInclude(undefined, allowed).size).toBe(0);
    expect(parseInclude("", allowed).size).toBe(0);
  });
});

describe("parseOrder", () => {
  // Spec operation 8: the articles of a user.
  const rule: OrderRule<"vote_count" | "create_time" | "update_time" | "delete_time"> = {
    fields: ["vote_count", "create_time", "update_time"],
    adminFields: ["delete_time"],
    default: "-create_time",
  };

  it("falls back to the default without a value", () => {
    expect(parseOrder(undefined, rule, false)).toEqual({ field: "create_time", desc: true });
    expect(parseOrder("", rule, false)).toEqual({ field: "create_time", desc: true });
  });

  it("reads a leading - as descending", () => {
    expect(parseOrder("vote_count", rule, false)).toEqual({ field: "vote_count", desc: false });
    expect(parseOrder("-update_time", rule, false)).toEqual({ field: "update_time", desc: true });
  });

  it.each(["bogus", "-", "--vote_count", "vote_count,create_time", "VOTE_COUNT"])(
    "falls back to the default for %j",
    (value) => {
      expect(parseOrder(value, rule, false)).toEqual({ field: "create_time", desc: true });
    },
  );

  it("refuses an administrators' field to others and grants it to administrators", () => {
    expect(parseOrder("-delete_time", rule, false)).toEqual({ field: "create_time", desc: true });
    expect(parseOrder("-delete_time", rule, true)).toEqual({ field: "delete_time", desc: true });
    expect(parseOrder("delete_time", rule, true)).toEqual({ field: "delete_time", desc: false });
  });
});

describe("parseIdList", () => {
  const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1).join(",");

  it("reads one id or a comma list, dropping repeats", () => {
    expect(parseIdList("7", "ids")).toEqual([7]);
    expect(parseIdList("3, 1,2,3", "ids")).toEqual([3, 1, 2]);
  });

  it(`accepts ${MAX_IDS} ids`, () => {
    expect(parseIdList(ids(MAX_IDS), "ids")).toHaveLength(MAX_IDS);
  });

  it(`refuses ${MAX_IDS + 1} ids with 200001 naming the parameter`, () => {
    const error = thrown(() => parseIdList(ids(MAX_IDS + 1), "notification_ids"));
    expect(error.status).toBe(400);
    expect(error.code).toBe(200001);
    expect(Object.keys(error.errors ?? {})).toEqual(["notification_ids"]);
  });

  it.each(["", "a", "1,a", "1,,2", "1,", "0", "-1", "1.5", "1e3", "0x10", "9007199254740992"])(
    "refuses %j with 200001",
    (value) => {
      const error = thrown(() => parseIdList(value, "ids"));
      expect(error.status).toBe(400);
      expect(error.code).toBe(200001);
      expect(error.errors?.ids).toEqual(expect.any(String));
    },
  );

  it("knows a positive integer string", () => {
    expect(isPositiveIntString("9007199254740991")).toBe(true);
    expect(isPositiveIntString("9007199254740992")).toBe(false);
    expect(isPositiveIntString("+1")).toBe(false);
  });
});

describe("pathId", () => {
  const schema = pathId("comment_id");

  it("turns a positive integer into a number", () => {
    expect(schema.parse({ comment_id: "42" })).toEqual({ comment_id: 42 });
  });

  it.each(["abc", "0", "-1", "1.5", "", "1e3", "0x10", "+5", " 5", "5.0", "007", "1234567890123456"])(
    "refuses %j as a 200001 naming the parameter",
    (value) => {
      const result = schema.safeParse({ comment_id: value });
      expect(result.success).toBe(false);
      const error = zodToApiError(result.error!, "param");
      expect(error.status).toBe(400);
      expect(error.code).toBe(200001);
      expect(error.errors).toEqual({ comment_id: "must be a positive integer" });
    },
  );
});

describe("zodToApiError", () => {
  const schema = z.object({
    name: z.string(),
    port: z.number().min(1, "too small").max(9, "too big"),
    nested: z.object({ on: z.boolean() }),
  });

  it("names every failing field with its first message", () => {
    const result = schema.safeParse({ name: 1, port: 0, nested: { on: "yes" } });
    const error = zodToApiError(result.error!);
    expect(error.code).toBe(200001);
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(["name", "nested.on", "port"]);
    expect(error.errors?.port).toBe("too small");
  });

  it("names the whole input with the fallback field", () => {
    const error = zodToApiError(schema.safeParse([]).error!, "body");
    expect(error.errors).toEqual({ body: expect.any(String) });
  });

  it("reports fields under the names the route chooses", () => {
    const error = zodToApiError(
      schema.safeParse({ name: "x", port: 0, nested: { on: true } }).error!,
      "body",
      (f) => `sent_${f}`,
    );
    expect(error.errors).toEqual({ sent_port: "too small" });
  });
});

describe("error table", () => {
  it("gives each error the HTTP status of docs/decisions.md#http-status-fits-the-error", () => {
    expect(errorCodes.SERVER_ERROR).toEqual({ code: 100000, status: 500 });
    expect(errorCodes.ROUTE_NOT_FOUND).toEqual({ code: 100004, status: 404 });
    expect(errorCodes.METHOD_NOT_ALLOWED).toEqual({ code: 100005, status: 405 });
    expect(errorCodes.JSON_MALFORMED).toEqual({ code: 100006, status: 400 });
    expect(errorCodes.VALIDATION).toEqual({ code: 200001, status: 400 });
    expect(errorCodes.BODY_TOO_LARGE?.status).toBe(413);
    expect(errorCodes.LOGIN_REQUIRED).toEqual({ code: 201001, status: 401 });
    expect(errorCodes.ADMIN_REQUIRED).toEqual({ code: 201002, status: 403 });
    expect(errorCodes.ALREADY_REPORTED).toEqual({ code: 207003, status: 409 });
    expect(errorCodes.TOO_MANY_REQUESTS?.status).toBe(429);
    for (const [name, { status }] of Object.entries(errorCodes)) {
      if (name.endsWith("_NOT_FOUND")) expect([name, status]).toEqual([name, 404]);
      if (/_CANT_/.test(name)) expect([name, status]).toEqual([name, 403]);
    }
  });

  it("writes a body with code, message and only the extras given", () => {
    expect(new ApiError("LOGIN_REQUIRED").toBody()).toEqual({ code: 201001, message: "Login required" });
    const body = new ApiError("VALIDATION", { errors: { name: "required" }, extra: { captcha_token: "t" } }).toBody();
    expect(body).toEqual({
      code: 200001,
      message: "Field validation failed",
      errors: { name: "required" },
      captcha_token: "t",
    });
    expect(JSON.stringify(body)).not.toContain("stack");
  });
});

describe("formatBytes", () => {
  it("counts in powers of 1024 with at most one decimal", () => {
    expect([0, 900, 1024, 360_448, 1536 * 1024, 5 * 1024 ** 2, 10 * 1024 ** 3].map(formatBytes)).toEqual([
      "0 B",
      "900 B",
      "1 KiB",
      "352 KiB",
      "1.5 MiB",
      "5 MiB",
      "10 GiB",
    ]);
  });
});

describe("pascal", () => {
  it("turns a snake_case name into the words of an operationId", () => {
    expect(["question", "following_topics", "user"].map(pascal)).toEqual(["Question", "FollowingTopics", "User"]);
  });
});

describe("imageUrls", () => {
  const site = (storage_url: string) => ({ options: { site_static_url: "", storage_url }, origin: "https://c.test" });

  it("names the stored file and its sizes, or the default image, on the site's bases", () => {
    const one = site("https://files.test/");
    expect(imageUrls("user-avatar/ab/cd.png", "avatar.png", one)).toEqual({
      original: "https://files.test/user-avatar/ab/cd.png",
      small: "https://files.test/user-avatar/ab/cd_small.png",
      middle: "https://files.test/user-avatar/ab/cd_middle.png",
      large: "https://files.test/user-avatar/ab/cd_large.png",
    });
    expect(imageUrls("", "avatar.png", one).large).toBe("https://c.test/static/default/avatar_large.png");
  });

  it("shares one set per image and settings record, which nobody can change, and none across records", () => {
    const one = site("");
    const shared = imageUrls("a/b.jpg", "topic_cover.jpg", one);
    expect(imageUrls("a/b.jpg", "topic_cover.jpg", one)).toBe(shared);
    expect(Object.isFrozen(shared)).toBe(true);
    // The default image is not the stored file of the same name.
    expect(imageUrls("", "b.jpg", one)).not.toBe(imageUrls("b.jpg", "b.jpg", one));
    // A settings change makes a new record: its URLs are made on its own bases.
    expect(imageUrls("a/b.jpg", "topic_cover.jpg", site("https://cdn.test")).original).toBe("https://cdn.test/a/b.jpg");
  });
});
