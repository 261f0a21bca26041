/**
 * A benchmark's settings: `--name=value` on the command line (`npm run bench load -- --requests=200`), else the
 * environment's `BENCH_NAME` (dashes as underscores), else the default.
 */
export function option(name: string, fallback: number): number;
export function option(name: string, fallback: string): string;
export function option(name: string, fallback: boolean): boolean;
export function option(name: string, fallback: number | string | boolean): number | string | boolean {
  const flag = process.argv.slice(2).find((arg: string) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  const raw = flag
    ? flag.includes("=")
      ? flag.slice(flag.indexOf("=") + 1)
      : "true"
    : process.env[`BENCH_${name.toUpperCase().replaceAll("-", "_")}`];
  if (raw === undefined || raw === "") return fallback;
  if (typeof fallback === "number") {
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new Error(`--${name} wants a number, not ${raw}`);
    return value;
  }
  if (typeof fallback === "boolean") return raw !== "false" && raw !== "0";
  return raw;
}
