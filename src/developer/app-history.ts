import type { DeveloperDeps } from './deps.js';
import type { Actor } from './actor.js';

/**
 * Records a change to an app twice: in the app's history (`app:<client_id>`, who, what, when; shown to its
 * team) and as a structured log line. Neither ever carries a secret: a secret appears by label and hint.
 */
export class AppRecorder {
  constructor(private readonly deps: Pick<DeveloperDeps, 'store' | 'clock' | 'log'>) {}

  async change(
    actor: Actor,
    clientId: string,
    action: string,
    detail: Record<string, string | string[]>,
    logEvent: string,
    logMessage: string,
    logFields: Record<string, unknown> = {},
  ): Promise<void> {
    const { store, clock, log } = this.deps;
    await store.appendDeveloperEvent({
      subject: `app:${clientId}`, at: clock.now().toISOString(), actorId: actor.id, actorName: actor.name, action, detail,
    });
    log.info({ event: logEvent, clientId, actorId: actor.id, action, ...logFields }, logMessage);
  }

  /** When the app last had this change (ISO 8601), looking back over its recent history. */
  async lastAt(clientId: string, action: string): Promise<string | undefined> {
    const events = await this.deps.store.listDeveloperEvents(`app:${clientId}`, 200);
    return events.find((e) => e.action === action)?.at;
  }
}
