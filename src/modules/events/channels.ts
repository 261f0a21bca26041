/**
 * Public channels (docs/events.md#channels): `question:12`, `article:7`, `topic:3`, the pages a reader keeps open.
 * An answer, a comment at any depth of replies, or a vote lives on the page of its question or article: its channel
 * is found by walking up from it (repo.ts, `pageChannels`), and only a live page has one.
 */

export const CHANNEL_KINDS = ["question", "article", "topic"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A channel's name, as clients subscribe to it: the kind and a positive id, as a path id is written. */
export const CHANNEL_PATTERN = /^(question|article|topic):[1-9]\d{0,14}$/;

export const channelOf = (kind: ChannelKind, id: number): string => `${kind}:${id}`;
