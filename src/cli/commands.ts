import { appsCommands } from './apps-command.js';
import { badgesCommands } from './badges-command.js';
import { checkConfigCommand } from './check-config-command.js';
import { classesCommands } from './classes-command.js';
import { clientsCommands } from './clients-command.js';
import { credentialsCommands } from './credentials-command.js';
import { developersCommands } from './developers-command.js';
import { devicesCommands } from './devices-command.js';
import type { Entry } from './command.js';
import { importCommand } from './import-command.js';
import { keysCommands } from './keys-command.js';
import { rosterCommands } from './roster-command.js';
import { serveCommand } from './serve-command.js';
import { staffCommands } from './staff-command.js';
import { storeCommands } from './store-command.js';
import { usersCommands } from './users-command.js';

/** Every `lanyard` command, in the order `lanyard --help` lists them. */
export const COMMANDS: Entry[] = [
  serveCommand,
  importCommand,
  rosterCommands,
  clientsCommands,
  appsCommands,
  developersCommands,
  usersCommands,
  classesCommands,
  staffCommands,
  credentialsCommands,
  devicesCommands,
  badgesCommands,
  keysCommands,
  storeCommands,
  checkConfigCommand,
];
