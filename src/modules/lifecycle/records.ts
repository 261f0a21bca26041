/**
 * The records trash and untrash answer with: each kind's own include names, relations, presenter and schema
 * (docs/conventions.md#object-shapes), as its module defines them for its other routes.
 */
import type { ContentRecords } from "../../behaviours/content/page";
import type { TrashableKind } from "../../domain/entities";
import { answerRecords } from "../answers/records";
import { articleRecords } from "../articles/records";
import { commentRecords } from "../comments/records";
import { questionRecords } from "../questions/records";
import { topicRecords } from "../topics/records";

/** A record as the wire shows it: every column of its kind, `delete_time` and `relationships` as presented. */
export type LifecycleRecord = Record<string, unknown>;

type AnyRecords = ContentRecords<Record<string, unknown>, LifecycleRecord, string>;

/**
 * Widened to any row and include name, which is sound here: the rows are read with the kind's own columns, and
 * the routes parse `include` with the kind's own names.
 */
const widen = <R, T, I extends string>(records: ContentRecords<R, T, I>) => records as unknown as AnyRecords;

export const recordKinds: Record<TrashableKind, AnyRecords> = {
  question: widen(questionRecords),
  answer: widen(answerRecords),
  article: widen(articleRecords),
  comment: widen(commentRecords),
  topic: widen(topicRecords),
};
