/**
 * The mean CPU time, in milliseconds, of one call to `run`, after one call to warm it up. Only the calling
 * thread's time counts: a Worker's CPU limit is on the thread that runs the request, not on the V8 threads that
 * compile and collect beside it. That clock ticks in milliseconds, so calls are repeated until it has counted at
 * least `minimumMs` (and at least `runs` calls), and the mean is taken.
 */
export function meanCpuMs(run: () => unknown, runs = 5, minimumMs = 200): number {
  run();
  const started = process.threadCpuUsage();
  let calls = 0;
  let used = 0;
  while (calls < runs || used < minimumMs) {
    run();
    calls++;
    const spent = process.threadCpuUsage(started);
    used = (spent.user + spent.system) / 1000;
  }
  return used / calls;
}
