import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION, UsageError } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-apps.js');
const connectionsWork = () => import('./run-connections.js');
const changesWork = () => import('./run-app-changes.js');

const CHANGE_OPTION = { type: 'string', placeholder: 'ID', description: 'the change (its id, from `lanyard apps changes`)', required: true } as const;

/** `--position 2` → 2; refused unless a whole number from 1. */
function positionOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError(`--position: "${value}" is not a place on the dashboard (1, 2, 3, …)`, 'apps connect');
  return Number(value);
}

/** `--types student,employee` → ['student', 'employee']. */
const typesOf = (value: string | undefined): string[] | undefined =>
  value === undefined ? undefined : value.split(',').map((t) => t.trim()).filter(Boolean);

const clientIdArg = [{ name: 'CLIENT_ID', description: 'the app (its client_id, from `lanyard apps list`)', required: true }] as const;

/** `lanyard apps …`: the operator's side of going live (docs/developer-area.md); a page for it comes later. */
export const appsCommands: Group = {
  name: 'apps',
  summary: 'review the apps developers register (approve or decline going live), and choose the apps each school uses',
  commands: [
    command({
      name: 'list',
      summary: 'every app: client_id, name, status, owner, when it asked to go live (never secrets)',
      details: 'With --pending, only the apps waiting for review, oldest request first.',
      options: { pending: { type: 'flag', description: 'only the apps waiting to go live' }, json: JSON_OPTION },
      run: async ({ options }) => (await work()).listAppsCommand(loadConfig(), systemClock, { pending: options.pending, json: options.json }),
    }),
    command({
      name: 'approve',
      summary: 'let an app waiting for review go live: its developers can then ask schools, which approve it in the school console (or `apps connect`)',
      details: 'Recorded in the app\'s history as the operator. Takes effect at once on every instance.',
      args: clientIdArg,
      options: {},
      run: async ({ args: [clientId] }) => (await work()).approveAppCommand(loadConfig(), systemClock, clientId!),
    }),
    command({
      name: 'decline',
      summary: 'send an app waiting for review back to development, with a note its developers see',
      details: 'Recorded in the app\'s history as the operator. The developers can change the app and ask again.',
      args: clientIdArg,
      options: { note: { type: 'string', placeholder: 'TEXT', description: 'why, for the app\'s developers (shown in the developer area)' } },
      run: async ({ args: [clientId], options }) => (await work()).declineAppCommand(loadConfig(), systemClock, clientId!, options.note),
    }),
    command({
      name: 'changes',
      summary: 'the changes to live apps waiting for review: new callback URLs, logout URLs, initiate login URIs',
      details: 'Each URL is shown with its host in ASCII (punycode), how it reads, and a WARNING when its host mixes writing systems.',
      options: { json: JSON_OPTION },
      run: async ({ options }) => (await changesWork()).listChangesCommand(loadConfig(), systemClock, options.json),
    }),
    command({
      name: 'approve-change',
      summary: 'let a change to a live app take effect (from `lanyard apps changes`)',
      details: 'Recorded in the app\'s history as the operator. Takes effect at once on every instance.',
      args: clientIdArg,
      options: { change: CHANGE_OPTION },
      run: async ({ args: [clientId], options }) => (await changesWork()).approveChangeCommand(loadConfig(), systemClock, clientId!, options.change!),
    }),
    command({
      name: 'decline-change',
      summary: 'drop a change to a live app waiting for review, with a note its team sees',
      details: 'Recorded in the app\'s history as the operator; the app keeps its current settings.',
      args: clientIdArg,
      options: { change: CHANGE_OPTION, note: { type: 'string', placeholder: 'TEXT', description: 'why, for the app\'s team (shown in its history)' } },
      run: async ({ args: [clientId], options }) => (await changesWork()).declineChangeCommand(loadConfig(), systemClock, clientId!, options.change!, options.note),
    }),
    command({
      name: 'connect',
      summary: 'a school starts using an app: it appears on its users\' dashboards and signs them in',
      details: 'Connecting again changes the user types or the place. Takes effect at once on every instance. '
        + 'Connections in the configuration file (organisations[].apps) are changed there.',
      args: clientIdArg,
      options: {
        org: ORG_OPTION,
        types: { type: 'string', placeholder: 'TYPE,…', description: 'only users of these types (e.g. student,employee); default every user' },
        position: { type: 'string', placeholder: 'N', description: 'its place on the dashboard (1 = first); default after the school\'s other apps' },
      },
      run: async ({ args: [clientId], options }) => (await connectionsWork()).connectAppCommand(loadConfig(), systemClock, {
        organisation: options.org!, clientId: clientId!, userTypes: typesOf(options.types), position: positionOf(options.position),
      }),
    }),
    command({
      name: 'disconnect',
      summary: 'a school stops using an app: it leaves the dashboards, and its sign-ins there are refused',
      details: 'Tokens already issued stay valid until they expire or are revoked.',
      args: clientIdArg,
      options: { org: ORG_OPTION },
      run: async ({ args: [clientId], options }) => (await connectionsWork()).disconnectAppCommand(loadConfig(), systemClock, options.org!, clientId!),
    }),
    command({
      name: 'connections',
      summary: 'the apps a school uses, in its dashboard\'s order, with the user types and where each was connected',
      options: { org: ORG_OPTION, json: JSON_OPTION },
      run: async ({ options }) => (await connectionsWork()).listConnectionsCommand(loadConfig(), systemClock, options.org!, options.json),
    }),
  ],
};
