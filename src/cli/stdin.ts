import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/** Everything on standard input, as text, without its final line break (`printf %s` and `echo` give the same). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * A secret from standard input. Piped in: all of it, less one final line break (readStdin). Typed on a
 * terminal: asked for on standard error without echoing what is typed (readline writes its echo to a stream
 * that drops it), then asked again, and refused when the two differ.
 */
export async function readSecret(what: string): Promise<string> {
  if (!process.stdin.isTTY) return readStdin();
  const first = await askHidden(`${what}: `);
  const again = await askHidden(`${what} again: `);
  if (first !== again) throw new Error(`the two ${what}s differ; nothing was changed`);
  return first;
}

async function askHidden(prompt: string): Promise<string> {
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: nowhere, terminal: true });
  process.stderr.write(prompt);
  try {
    const cancelled = new Promise<never>((_, reject) => rl.once('SIGINT', () => reject(new Error('cancelled; nothing was changed'))));
    return await Promise.race([rl.question(''), cancelled]);
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
