/**
 * `@username` mentions (docs/mentions.md): finding them in text, the names to look up before a write, and the links
 * they become in rendered markdown. Pure: which names are members is the caller's lookup, passed in as a
 * {@link MentionMap}.
 *
 * A mention is `@` followed by a run of the characters a username is made of, where the `@` does not follow a
 * character of an address or a path (`a@b.c`, `x/@y` are not mentions). A run ends where those characters end; CJK
 * text has no spaces, so a name written in it may be followed by more of it (`@李静你好`): the name is then the
 * longest beginning of the run that is a member's, ending at a CJK character or before one. ASCII names end only
 * where the run ends (`@samwise42` never mentions `sam`).
 */
import Token from "markdown-it/lib/token.mjs";
import { MAX_USERNAME_LENGTH, MIN_USERNAME_LENGTH, USERNAME_CHARACTER } from "./username";

/** At most this many members are linked and notified by one item; later mentions of others stay text. */
export const MAX_MENTIONED = 10;
/** The runs after an `@` whose names are looked up, at most: the first ones of the text. */
const MAX_RUNS = 30;

const MENTION = new RegExp(`(?<![A-Za-z0-9._%+\\-/@])@([${USERNAME_CHARACTER}]+)`, "g");
const CJK = /[\u4E00-\u9FA5]/;

/** A member a mention may name: their id and their name as stored. */
export interface Member {
  user_id: number;
  username: string;
}

/** Members by their name folded as SQLite's lower() folds it (ASCII letters), the fold usernames are unique by. */
export type MentionMap = ReadonlyMap<string, Member>;

/** A name folded as the unique index on lower(username) folds it: the only letters a name has beside CJK are ASCII. */
export const foldName = (name: string): string => name.toLowerCase();

/** The names a run after an `@` may be, longest first: the run, and its beginnings that end at CJK text. */
function namesIn(run: string): string[] {
  const chars = Array.from(run);
  const names: string[] = [];
  for (let end = Math.min(chars.length, MAX_USERNAME_LENGTH); end >= MIN_USERNAME_LENGTH; end--) {
    const atEnd = end === chars.length;
    if (atEnd || CJK.test(chars[end - 1] as string) || CJK.test(chars[end] as string)) {
      names.push(chars.slice(0, end).join(""));
    }
  }
  return names;
}

/**
 * The names to look up for a text's mentions (every name each of its first {@link MAX_RUNS} runs may be), folded and
 * without repeats: what a write reads with its other checks, before it renders anything.
 */
export function mentionCandidates(text: string): string[] {
  const runs = new Set<string>();
  for (const [, run] of text.matchAll(MENTION)) {
    runs.add(run as string);
    if (runs.size === MAX_RUNS) break;
  }
  return [...new Set([...runs].flatMap((run) => namesIn(run).map(foldName)))];
}

/** A mention found in text: where it starts (its `@`), how long it is, and the member it names. */
interface Found {
  index: number;
  length: number;
  member: Member;
}

/** The mentions of members in a text, in order. */
function findMentions(text: string, members: MentionMap): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(MENTION)) {
    const name = namesIn(match[1] as string).find((candidate) => members.has(foldName(candidate)));
    const member = name === undefined ? undefined : members.get(foldName(name));
    if (member && name) found.push({ index: match.index, length: name.length + 1, member });
  }
  return found;
}

/**
 * Which members a text mentions, in order, without repeats, at most {@link MAX_MENTIONED}: for plain text (comments),
 * and for the earlier text of an edit, read with the same map.
 */
export function mentionedIn(text: string, members: MentionMap): number[] {
  const ids: number[] = [];
  for (const { member } of findMentions(text, members)) {
    if (!ids.includes(member.user_id) && ids.length < MAX_MENTIONED) ids.push(member.user_id);
  }
  return ids;
}

/** The path of a member's page, which a mention links to: by id, so no name is ever read back from a URL. */
const memberPath = (userId: number): string => `/users/${userId}`;

/** The members that rendered HTML links to as mentions (`<a href="/users/1">@…`), as this module writes them. */
export function linkedMembers(html: string): number[] {
  return [...new Set([...html.matchAll(/<a href="\/users\/(\d+)">@/g)].map((match) => Number(match[1])))];
}

/**
 * Turns the mentions in parsed markdown's text into links to the members' pages, outside links and code (only text
 * tokens are read), and answers the members linked, in order. Once {@link MAX_MENTIONED} members are linked,
 * mentions of others stay text. The links are ordinary tokens, sanitised and escaped by the renderer like any other.
 */
export function linkMentions(tokens: Token[], members: MentionMap): number[] {
  const linked: number[] = [];
  for (const token of tokens) {
    if (token.type !== "inline" || !token.children) continue;
    let depth = 0;
    const children: Token[] = [];
    for (const child of token.children) {
      if (child.type === "link_open") depth++;
      if (child.type === "link_close") depth--;
      if (child.type !== "text" || depth > 0) {
        children.push(child);
        continue;
      }
      children.push(...splitText(child, members, linked));
    }
    token.children = children;
  }
  return linked;
}

function splitText(token: Token, members: MentionMap, linked: number[]): Token[] {
  const text = (content: string) => Object.assign(new Token("text", "", 0), { content });
  const out: Token[] = [];
  let cursor = 0;
  for (const { index, length, member } of findMentions(token.content, members)) {
    if (!linked.includes(member.user_id)) {
      if (linked.length === MAX_MENTIONED) continue;
      linked.push(member.user_id);
    }
    if (index > cursor) out.push(text(token.content.slice(cursor, index)));
    const open = new Token("link_open", "a", 1);
    open.attrs = [["href", memberPath(member.user_id)]];
    out.push(open, text(token.content.slice(index, index + length)), new Token("link_close", "a", -1));
    cursor = index + length;
  }
  if (cursor === 0) return [token];
  if (cursor < token.content.length) out.push(text(token.content.slice(cursor)));
  return out;
}
