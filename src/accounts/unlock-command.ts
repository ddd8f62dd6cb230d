import { withConfiguredStore } from '../cli/configured-store.js';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { LoginThrottle, throttlePolicy } from './login-throttle.js';
import { findTargets } from './users-command.js';

/**
 * `lanyard users unlock --org SLUG --user USERNAME`: clears the user's waits, including an unknown-device
 * path stopped after too many wrong tries (README → Sign-in protection). Devices stay known.
 */
export async function unlockUserCommand(config: Config, o: { org: string; user: string }, clock: Clock = systemClock): Promise<void> {
  await withConfiguredStore(config, clock, async (store) => {
    const { organisation, user } = await findTargets(store, o.org, o.user);
    const throttle = new LoginThrottle(store, clock, throttlePolicy(config.file.login_throttling));
    const stopped = await throttle.stoppedFactors(organisation.id, user!.username);
    await throttle.unlock(organisation.id, user!.username);
    process.stdout.write(`unlocked ${user!.username} at ${organisation.name}`
      + `${stopped.length ? ` (sign-in from new devices had stopped: ${stopped.join(', ')})` : ''}; known devices stay known\n`);
  });
}
