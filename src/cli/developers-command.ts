import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION } from './command.js';

/** The commands' work, loaded only when one runs (`lanyard --help` stays quick). */
const work = () => import('./run-developers.js');

const email = [{ name: 'EMAIL', description: "the developer's email address", required: true }] as const;

/** `lanyard developers …`: developer accounts (the developer area, /developer). */
export const developersCommands: Group = {
  name: 'developers',
  summary: 'invite and look after developer accounts (the developer area at /developer)',
  commands: [
    command({
      name: 'invite',
      summary: 'print a single-use link (valid 7 days) that creates a developer account for EMAIL',
      details: 'Lanyard sends no email: hand the link to the developer yourself. Only its hash is stored.\n'
        + 'Refused when EMAIL already has an account.',
      args: email,
      options: {},
      run: async ({ args: [address] }) => (await work()).inviteDeveloperCommand(loadConfig(), systemClock, address!),
    }),
    command({
      name: 'list',
      summary: 'every developer account: email, name, two-step sign-in on or off, apps (never secrets)',
      options: { json: JSON_OPTION },
      run: async ({ options }) => (await work()).listDevelopersCommand(loadConfig(), systemClock, { json: options.json }),
    }),
    command({
      name: 'signout',
      summary: 'end every session of a developer account and revoke its API tokens (when it may be in the wrong hands)',
      args: email,
      options: {},
      run: async ({ args: [address] }) => (await work()).signOutDeveloperCommand(loadConfig(), systemClock, address!),
    }),
    command({
      name: 'unlock',
      summary: "clear a developer account's sign-in waits, including new-device sign-in stopped after too many wrong tries",
      args: email,
      options: {},
      run: async ({ args: [address] }) => (await work()).unlockDeveloperCommand(loadConfig(), systemClock, address!),
    }),
  ],
};
