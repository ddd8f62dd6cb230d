import type { FastifyBaseLogger } from 'fastify';

/**
 * oidc-provider prints its notices and warnings with console.info / console.warn (plain, sometimes
 * coloured text). In the service they are routed into the structured log instead, so log lines stay JSON.
 * Other console output is left alone.
 */
export function routeProviderConsole(log: FastifyBaseLogger): void {
  const route = (level: 'info' | 'warn', original: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0].replace(/\x1b\[[0-9;]*m/g, '') : '';
      if (!text.startsWith('oidc-provider ')) return original(...args);
      log[level]({ event: 'provider.notice' }, text);
    };
  console.info = route('info', console.info.bind(console));
  console.warn = route('warn', console.warn.bind(console));
}
