/** The least CPU time, in milliseconds, that `run` took over `runs` calls (the least is the least disturbed). */
export function bestCpuMs(runs: number, run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}
