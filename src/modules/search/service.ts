/**
 * Full-text search (docs/search.md): one page of one kind's records whose text matches, best first, each as its own
 * lists present it with the match's snippet, in one batch.
 */
import { loadPage, type Page, type Records } from "../../behaviours/content/page";
import type { Relationships } from "../../behaviours/content/present";
import { HIGHLIGHT, type SearchKind, searchSource } from "../../behaviours/searchable";
import type { Db } from "../../db/client";
import type { View } from "../../http/view";
import { parseInclude } from "../../lib/include";
import { parsePage } from "../../lib/pagination";
import { highlightHtml } from "../../lib/search-text";
import { answerRecords } from "../answers/records";
import { articleRecords } from "../articles/records";
import { questionRecords } from "../questions/records";
import { topicRecords } from "../topics/records";
import { userRecords } from "../users/records";
import type { SearchParams } from "./schema";

type AnyRecords = Records<Record<string, unknown>, unknown, string>;

/**
 * Widened to any row and include name, which is sound here: the rows are read with the kind's own columns (and the
 * snippet, taken off before presenting), and `include` is parsed with the kind's own names.
 */
const widen = <R, T, I extends string>(records: Records<R, T, I>) => records as unknown as AnyRecords;

const RECORDS: Record<SearchKind, AnyRecords> = {
  question: widen(questionRecords),
  answer: widen(answerRecords),
  article: widen(articleRecords),
  topic: widen(topicRecords),
  user: widen(userRecords),
};

/** GET /search: `q` is already FTS5 expressions (schema.ts). Administrators see what everyone sees. */
export function search(db: Db, view: View, query: SearchParams): Promise<Page<unknown>> {
  const records = RECORDS[query.type];
  const include = parseInclude(query.include, records.includes);
  const present = records.present(view);
  return loadPage(
    db,
    // Users are looked for by the beginning of their name as it is typed.
    searchSource(query.type, query.type === "user" ? query.q.prefix : query.q.words),
    parsePage(query),
    records.relation(db, view, include),
    (row: Record<string, unknown>, relationships: Relationships | undefined) => {
      const { [HIGHLIGHT]: snippet, ...fields } = row;
      return present(fields, { ...relationships, highlight: highlightHtml(String(snippet)) });
    },
  );
}
