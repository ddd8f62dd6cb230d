import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION } from './command.js';
import { listClassesCommand } from './run-classes.js';

/** `lanyard classes …`: the classes a roster import brought (docs/rostering.md). */
export const classesCommands: Group = {
  name: 'classes',
  summary: "an organisation's classes (from its roster)",
  commands: [
    command({
      name: 'list',
      summary: "an organisation's classes: id, sourcedId, title, teachers, pupil count",
      details: 'A class is named to other commands (users list --class, credentials issue --class) by its id or its sourcedId.',
      options: { org: ORG_OPTION, json: JSON_OPTION },
      run: ({ options }) => listClassesCommand(loadConfig(), systemClock, options),
    }),
  ],
};
