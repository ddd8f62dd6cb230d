import type { Store } from '../../adapters/store.js';
import { seededCredentialInUse } from '../accounts/import-records.js';
import type { DemoSignIn } from './summary.js';

/**
 * The startup summary's demo sign-ins, each marked `replaced` when the configuration's secret is no longer
 * the user's: a badge printed again with `lanyard badges print` (which retires the file's code), an emoji
 * password issued again. The file's value is kept across restarts only while unchanged in the file
 * (src/roster/importer.ts), so the summary would otherwise offer a secret that no longer signs anyone in.
 */
export async function markReplacedSignIns(store: Store, signIns: DemoSignIn[]): Promise<DemoSignIn[]> {
  return Promise.all(signIns.map(async (signIn) => {
    const organisation = await store.findOrganisation(signIn.slug);
    const user = organisation && (await store.findUserByUsername(organisation.id, signIn.username));
    const inUse = user !== undefined && (await seededCredentialInUse(store, user.id, signIn.method));
    return inUse ? signIn : { ...signIn, replaced: true };
  }));
}
