/** Unix seconds: every `*_time` field (DECISIONS.md, wire format). */
export const now = (): number => Math.floor(Date.now() / 1000);
