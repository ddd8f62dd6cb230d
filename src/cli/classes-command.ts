import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION } from './command.js';
import { listClassesCommand } from './run-classes.js';

/** The class links' work, loaded only when one runs (`lanyard --help` stays quick). */
const links = () => import('./run-class-links.js');

const klass = { type: 'string', placeholder: 'ID', description: 'the class (its id or sourcedId: lanyard classes list)', required: true } as const;

/** `lanyard classes …`: the classes a roster import brought (docs/rostering.md), and their class links. */
export const classesCommands: Group = {
  name: 'classes',
  summary: "an organisation's classes (from its roster) and their class links",
  commands: [
    command({
      name: 'list',
      summary: "an organisation's classes: id, sourcedId, title, teachers, pupil count",
      details: 'A class is named to other commands (users list --class, credentials issue --class) by its id or its sourcedId.',
      options: { org: ORG_OPTION, json: JSON_OPTION },
      run: ({ options }) => listClassesCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'link',
      summary: "make a class link: a code that opens the class's name tiles on any device for a while",
      details: `Prints the class code, the link (<issuer>/class/CODE; show it, or a QR code of it) and until when,
once: Lanyard keeps only a keyed hash of the code. Pupils who open it tap their first name, then their
pictures. It works for --minutes (60 unless given; at most 1440, a day), or until classes unlink ends it.
See docs/childrens-sign-in.md → Class links.`,
      options: {
        org: ORG_OPTION, class: klass,
        minutes: { type: 'string', placeholder: 'N', default: '60', description: 'how long it works, in minutes (1 to 1440)' },
        json: { type: 'flag', description: 'print JSON (id, classId, code, url, expiresAt)' },
      },
      run: async ({ options }) => (await links()).makeClassLinkCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'links',
      summary: "a class's live class links: id, who made it, when, until when",
      options: { org: ORG_OPTION, class: klass, json: JSON_OPTION },
      run: async ({ options }) => (await links()).listClassLinksCommand(loadConfig(), systemClock, options),
    }),
    command({
      name: 'unlink',
      summary: 'revoke a class link: its link and code open nothing from now on',
      options: {
        org: ORG_OPTION, class: klass,
        link: { type: 'string', placeholder: 'ID', description: 'the link (its id, from classes links or classes link)', required: true },
      },
      run: async ({ options }) => (await links()).revokeClassLinkCommand(loadConfig(), systemClock, options),
    }),
  ],
};
