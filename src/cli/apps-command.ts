import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { command, type Group, JSON_OPTION } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('../developer/apps-commands.js');

const clientIdArg = [{ name: 'CLIENT_ID', description: 'the app (its client_id, from `lanyard apps list`)', required: true }] as const;

/** `lanyard apps …`: the operator's side of going live (issue 9 §3); a page for it comes later. */
export const appsCommands: Group = {
  name: 'apps',
  summary: 'review the apps developers register: list them, approve or decline requests to go live',
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
      summary: 'let an app waiting for review go live: it may then sign in users of every school',
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
  ],
};
