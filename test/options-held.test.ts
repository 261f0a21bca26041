/**
 * Settings held in the isolate (docs/performance.md#settings-held-in-the-isolate): with `OPTIONS_CACHE_SECONDS`, an
 * isolate serves the settings it read for that long without asking KV, its own PATCH replaces them at once, and a
 * change another isolate wrote to KV shows once the time is up. The rest of the suite runs with "0" (every request
 * asks KV), since tests restore KV behind the isolate's back.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readCachedOptions } from "../src/domain/site-options-store";
import { get, patch } from "./helpers/api";
import { countingKv } from "./helpers/counting-kv";
import { createAdmin, createUser } from "./helpers/factories";

const held = (kv: KVNamespace, seconds = "10") => ({ ...env, KV: kv, OPTIONS_CACHE_SECONDS: seconds });
const siteName = async (bindings: typeof env, token?: string) =>
  (await get("/api/options", { env: bindings, token })).body.data.site_name;

afterEach(() => {
  vi.useRealTimers();
});

describe("settings held in the isolate", () => {
  it("are read from KV once, then served without asking it until the time is up", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { kv, reads } = countingKv();
    const user = await createUser();
    await get("/api/options", { env: held(kv) });
    await get("/api/questions", { env: held(kv), token: user.token });
    expect(reads).toEqual(["options:v1"]);

    vi.advanceTimersByTime(11_000);
    await get("/api/options", { env: held(kv) });
    expect(reads).toEqual(["options:v1", "options:v1"]);
  });

  it("show the isolate's own change at once, and another isolate's once the time is up", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const admin = await createAdmin();
    const { kv } = countingKv();
    const bindings = held(kv);
    const changed = await patch("/api/options", { env: bindings, token: admin.token, body: { site_name: "Mine" } });
    expect(changed.status).toBe(200);
    expect(await siteName(bindings)).toBe("Mine");

    // Another isolate writes a change through to KV: this one keeps its copy for its time, then reads the change.
    const record = await env.KV.get<Record<string, unknown>>("options:v1", "json");
    await env.KV.put("options:v1", JSON.stringify({ ...record, site_name: "Theirs" }));
    expect(await siteName(bindings)).toBe("Mine");
    vi.advanceTimersByTime(11_000);
    expect(await siteName(bindings)).toBe("Theirs");
  });

  it("expire at the time they were read, however often they are asked for meanwhile", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { kv, reads } = countingKv();
    const bindings = held(kv);
    const first = await siteName(bindings);
    const record = await env.KV.get<Record<string, unknown>>("options:v1", "json");
    await env.KV.put("options:v1", JSON.stringify({ ...record, site_name: "Changed elsewhere" }));

    // Asked for again before they expire: the held record answers, and KV is not read.
    vi.advanceTimersByTime(6_000);
    const readsBefore = reads.length;
    expect((await readCachedOptions(bindings))?.site_name).toBe(first);
    expect(reads.length).toBe(readsBefore);

    // 11 s after the record was read (5 s after the lookup), the change shows.
    vi.advanceTimersByTime(5_000);
    expect(await siteName(bindings)).toBe("Changed elsewhere");
  });

  it("are asked of KV by every request with OPTIONS_CACHE_SECONDS = 0", async () => {
    const { kv, reads } = countingKv();
    await get("/api/options", { env: held(kv, "0") });
    await get("/api/options", { env: held(kv, "0") });
    expect(reads).toEqual(["options:v1", "options:v1"]);
  });
});
