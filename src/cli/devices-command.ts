import { listDevicesCommand, revokeDevicesCommand } from './run-devices.js';
import { loadConfig } from '../config/config.js';
import { command, type Group, JSON_OPTION, ORG_OPTION } from './command.js';

const org = ORG_OPTION;

/** `lanyard devices …`: trusted classroom devices (docs/security.md → Sign-in protection). */
export const devicesCommands: Group = {
  name: 'devices',
  summary: "an organisation's trusted classroom devices (staff mark them at /classroom-device)",
  commands: [
    command({
      name: 'list',
      summary: "list an organisation's classroom devices: id, name, when and by whom marked, status",
      options: { org, json: JSON_OPTION },
      run: ({ options }) => listDevicesCommand(loadConfig(), { org: options.org, json: options.json }),
    }),
    command({
      name: 'revoke',
      summary: 'revoke a classroom device (or all of them): it counts as an unknown device again at once',
      options: {
        org,
        device: { type: 'string', placeholder: 'ID', description: 'the device (its id, from devices list)' },
        all: { type: 'flag', description: 'every classroom device of the organisation' },
      },
      run: ({ options }) => revokeDevicesCommand(loadConfig(), { org: options.org, device: options.device, all: options.all }),
    }),
  ],
};
