import { CLIENT_SECRET_MIN_LENGTH, generateClientSecret, hashClientSecret } from '../clients/client-secret.js';
import { command, type Group } from './command.js';
import { readStdin } from './stdin.js';
import { STANDARD_OUTPUT } from './output.js';

/** `lanyard clients …`: secrets for the apps registered in the configuration file. */
export const clientsCommands: Group = {
  name: 'clients',
  summary: 'secrets for the apps (clients) in the configuration file',
  commands: [
    command({
      name: 'secret',
      summary: 'generate a client secret; prints it once, and the hash for "secret_hashes"',
      details: 'Give the secret to the app over a safe channel; put the hash in the client\'s "secret_hashes" and restart Lanyard.',
      options: {},
      run: () => {
        const secret = generateClientSecret();
        STANDARD_OUTPUT.out(`secret (give it to the app; it is not stored anywhere): ${secret}`);
        STANDARD_OUTPUT.out(`hash (add to the client's "secret_hashes"): ${hashClientSecret(secret)}`);
      },
    }),
    command({
      name: 'hash',
      summary: 'read a secret from standard input; print its hash',
      details: `The secret must be at least ${CLIENT_SECRET_MIN_LENGTH} random characters: printf %s "$SECRET" | lanyard clients hash`,
      options: {},
      run: async () => {
        const secret = await readStdin();
        if (secret.length < CLIENT_SECRET_MIN_LENGTH) {
          throw new Error(`a client secret must be at least ${CLIENT_SECRET_MIN_LENGTH} random characters (make one with \`lanyard clients secret\`)`);
        }
        STANDARD_OUTPUT.out(hashClientSecret(secret));
      },
    }),
  ],
};
