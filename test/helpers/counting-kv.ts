import { env } from "cloudflare:workers";

/** The KV namespace with every key read through it listed, in order (each proxy is a namespace object of its own). */
export function countingKv() {
  const reads: string[] = [];
  const kv = new Proxy(env.KV, {
    get(target, name) {
      if (name === "get") {
        return (key: string | string[], type?: never) => {
          reads.push(...(Array.isArray(key) ? key : [key]));
          return target.get(key as never, type);
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv, reads };
}
