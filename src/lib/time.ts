/** Unix seconds: every `*_time` field (docs/decisions.md#wire-format). */
export const now = (): number => Math.floor(Date.now() / 1000);
