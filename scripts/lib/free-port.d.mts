/** A port nobody listens on now, on loopback. */
export function freePort(): Promise<number>;
