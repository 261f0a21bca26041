import { describe, expect, it } from "vitest";
import { processContent } from "../src/lib/markdown";

/** Wall time of one call: a guard that lets pathological input through would take tens of seconds here. */
function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe("processContent refuses content that would cost micromark seconds of CPU", () => {
  it.each([
    ["containers opened on one line", "- - - - x\n".repeat(10_000)],
    ["quotes inside list items on one line", "- > - > x\n".repeat(5_000)],
    ["emphasis delimiter runs", "*a".repeat(50_000)],
    ["underscore runs", "_a".repeat(50_000)],
    ["sources over twice the content limit", "a".repeat(200_001)],
  ])("refuses %s on both fields, fast", (_name, markdown) => {
    let result: ReturnType<typeof processContent> | undefined;
    expect(timed(() => (result = processContent({ content_markdown: markdown })))).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, errors: { content_markdown: expect.any(String), content_rendered: expect.any(String) } });
  });

  it("still accepts what real documents do: indented nesting, a few same-line nestings, emphasis", () => {
    const nested = Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i % 6)}- item ${i}`).join("\n");
    const sameLine = "- > quoted in a list\n".repeat(150);
    const emphasis = "some *emphasis* and __strong__ text. ".repeat(1_000);
    for (const markdown of [nested, sameLine, emphasis]) expect(processContent({ content_markdown: markdown }).ok).toBe(true);
  });

  it("stays fast at the limits it lets through", () => {
    const atLimits = "- - x\n".repeat(200) + "*a".repeat(4_900) + "\n\n" + "text ".repeat(15_000);
    let ok = false;
    expect(timed(() => (ok = processContent({ content_markdown: atLimits }).ok))).toBeLessThan(5000);
    expect(ok).toBe(true);
  });
});
