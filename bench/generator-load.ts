import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * How hard the load generator (the bench's own process) worked: if it is near a full core, or its event loop
 * lags, the figures measured meanwhile are partly its own limits, not the server's.
 */
export interface GeneratorLoad {
  /** CPU time of this process over the wall time, in % of one core. */
  cpuPercent: number;
  /** Event-loop delay p99, ms. */
  loopDelayP99: number;
}

export function watchGenerator(): { stop(): GeneratorLoad } {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  return {
    stop() {
      delay.disable();
      const used = process.cpuUsage(cpu);
      const wallUs = (performance.now() - t0) * 1000;
      return {
        cpuPercent: Math.round(((used.user + used.system) / wallUs) * 1000) / 10,
        loopDelayP99: Math.round(delay.percentile(99) / 1e5) / 10,
      };
    },
  };
}
