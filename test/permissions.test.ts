import { describe, expect, it } from "vitest";
import type { Caller } from "../src/core/caller";
import { ApiError } from "../src/core/errors";
import { type AuthorAction, authorRefusal, type ContentKind } from "../src/domain/permissions";
import { defaultOptions } from "../src/domain/site-options";

const T = 1_000_000;
const author = { user_id: 7, role: "user" } as Caller;
const other = { user_id: 8, role: "user" } as Caller;
const admin = { user_id: 9, role: "admin" } as Caller;

function options(values: Record<string, unknown>) {
  return { ...defaultOptions(), ...values };
}

// A private message has one action: its sender withdraws it (docs/messages.md#withdrawing-a-message).
const codes: Record<ContentKind, Partial<Record<AuthorAction, number[]>>> = {
  // off, not author, timeout, has comment, has answer
  question: { edit: [202002, 202003, 202004, 202006, 202005], delete: [202007, 202008, 202009, 202011, 202010] },
  answer: { edit: [203002, 203003, 203004, 203005], delete: [203006, 203007, 203008, 203009] },
  article: { edit: [206002, 206003, 206004, 206005], delete: [206006, 206007, 206008, 206009] },
  comment: { edit: [204002, 204003, 204004], delete: [204005, 204006, 204007] },
  message: { delete: [209008, 209009, 209010] },
};

const code = (name: string | null) => (name ? new ApiError(name as never).code : 0);

describe.each(Object.keys(codes) as ContentKind[])("author permission rules for %s", (kind) => {
  describe.each((["edit", "delete"] as AuthorAction[]).filter((action) => codes[kind][action]))("%s", (action) => {
    const key = `${kind}_can_${action}`;
    const [off, notAuthor, timeout, hasComment, hasAnswer] = codes[kind][action] ?? [];
    const item = { user_id: 7, create_time: T - 100, comment_count: 0, answer_count: 0 };

    it("refuses everyone but the author first, then applies the switch", () => {
      expect(code(authorRefusal(kind, action, item, other, options({ [key]: true }), T))).toBe(notAuthor);
      expect(code(authorRefusal(kind, action, item, author, options({ [key]: false }), T))).toBe(off);
      expect(
        authorRefusal(kind, action, item, author, options({ [key]: true, [`${key}_only_no_comment`]: false }), T),
      ).toBeNull();
    });

    it("allows up to exactly the time limit, then refuses", () => {
      const o = options({ [key]: true, [`${key}_before`]: 100, [`${key}_only_no_comment`]: false });
      expect(authorRefusal(kind, action, item, author, o, T)).toBeNull();
      expect(code(authorRefusal(kind, action, item, author, o, T + 1))).toBe(timeout);
      expect(authorRefusal(kind, action, item, author, { ...o, [`${key}_before`]: 0 }, T + 10_000)).toBeNull();
    });

    if (hasComment) {
      it("refuses an item with comments when only_no_comment is on", () => {
        const o = options({ [key]: true, [`${key}_only_no_comment`]: true, [`${key}_only_no_answer`]: false });
        expect(code(authorRefusal(kind, action, { ...item, comment_count: 1 }, author, o, T))).toBe(hasComment);
        expect(
          authorRefusal(
            kind,
            action,
            { ...item, comment_count: 1 },
            author,
            { ...o, [`${key}_only_no_comment`]: false },
            T,
          ),
        ).toBeNull();
      });
    }

    if (hasAnswer) {
      it("refuses a question with answers when only_no_answer is on, after the comment rule", () => {
        const o = options({ [key]: true, [`${key}_only_no_comment`]: true, [`${key}_only_no_answer`]: true });
        expect(code(authorRefusal(kind, action, { ...item, answer_count: 2 }, author, o, T))).toBe(hasAnswer);
        expect(code(authorRefusal(kind, action, { ...item, answer_count: 2, comment_count: 1 }, author, o, T))).toBe(
          hasComment,
        );
      });
    }

    it("exempts administrators from every rule", () => {
      const strict = options({ [key]: false });
      expect(
        authorRefusal(
          kind,
          action,
          { ...item, user_id: 1, comment_count: 5, answer_count: 5 },
          admin,
          strict,
          T + 99_999,
        ),
      ).toBeNull();
    });
  });
});
