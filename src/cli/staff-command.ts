import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION } from './command.js';
import { grantStaffCommand, listStaffCommand, revokeStaffCommand } from './run-staff.js';

/** Options the grant and revoke commands share. */
const user = { type: 'string', placeholder: 'USERNAME', description: 'the member of staff (their username in the organisation)', required: true } as const;
const role = { type: 'string', choices: ['admin', 'teacher'], required: '--role is admin or teacher', description: 'admin: the whole school; teacher: their classes' } as const;

/** `lanyard staff …`: who may use the school console, and as what (docs/school-console.md → Who may do what). */
export const staffCommands: Group = {
  name: 'staff',
  summary: "an organisation's school admins and teachers in the school console",
  commands: [
    command({
      name: 'grant',
      summary: 'make a user a school admin or a teacher of the organisation',
      details: `The operator's grant: a roster import and the configuration file leave it alone (a role they gave
becomes the operator's). A school admin sees every class and person of the school and must use two-step
sign-in; a teacher sees the classes the roster enrols them in (the roster's teachers need no grant).`,
      options: { org: ORG_OPTION, user, role },
      run: ({ options }) => grantStaffCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'revoke',
      summary: "withdraw a user's school admin or teacher role in the organisation, whoever granted it",
      details: `A role the roster gives (its administrators) comes back at the next import while the roster still
gives it, one from the configuration file at the next start; the classes the roster enrols a teacher in
are the roster's to change.`,
      options: { org: ORG_OPTION, user, role },
      run: ({ options }) => revokeStaffCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'list',
      summary: "an organisation's staff: username, name, roles and where each comes from, two-step sign-in on or off",
      details: `Roles: admin or teacher, each with who granted it (roster, config file, console, operator), and
teacher (N classes) for everyone the roster enrols to teach (or assist in) a class of the school.`,
      options: { org: ORG_OPTION, json: JSON_OPTION },
      run: ({ options }) => listStaffCommand(loadConfig(), systemClock, options),
    }),
  ],
};
