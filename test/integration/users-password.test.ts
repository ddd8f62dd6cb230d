import { spawn } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { projectRoot } from '../../src/package-files.js';
import { GENERATED_ALPHABET } from '../../src/accounts/user-password.js';
import { assertSession, refusedSignIn, signInAs } from '../helpers/account-session.js';
import { compileCacheEnv } from '../helpers/child-env.js';
import { lanyard, type Run } from '../helpers/cli.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';
import { LANYARD_ARGV } from '../helpers/lanyard-command.js';
import { TEACHER } from '../helpers/sign-in.js';

/**
 * `lanyard users password --org SLUG --user USERNAME (--generate | --stdin)` (docs/configuration.md → Adding
 * clients and users), run as the real command against the store of a running Lanyard: the new password signs
 * in, the old one no longer does, and the user's sessions end.
 */

const storeEnv = (lanyard: Lanyard) => ({ LANYARD_STORE: `sqlite:${join(lanyard.dir, 'lanyard.db')}` });
const target = ['users', 'password', '--org', 'demo-school', '--user', 'teacher'];
const as = (password: string) => ({ password: { ...TEACHER, password } });
/** The real command, on the running Lanyard's store. */
const lanyard_ = (l: Lanyard, args: string[], stdin = '') => lanyard(args, storeEnv(l), stdin);

t.test('--generate: a strong password printed once, which signs in; the old one stops, sessions end', async (t) => {
  const lanyard = await startLanyard(t);
  const before = await signInAs(lanyard.url, as(TEACHER.password));
  const run = await lanyard_(lanyard, [...target, '--generate']);
  t.equal(run.code, 0, run.stderr);
  const password = /^ {2}(\S+)$/m.exec(run.stdout)?.[1];
  const symbol = `[${GENERATED_ALPHABET}]`;
  t.match(password, new RegExp(`^${symbol}{4}-${symbol}{4}-${symbol}{4}-${symbol}{4}$`), 'four groups of four unambiguous symbols');
  t.match(run.stdout, /password for Tess Teacher \(teacher\) at Demo School:/);
  t.match(run.stdout, /the old password no longer works, and they are signed out of Lanyard everywhere/);
  await assertSession(t, before, lanyard.url, false, 'the session signed in with the old password');
  t.equal((await refusedSignIn(lanyard.url, as(TEACHER.password))).status, 401, 'the old password is refused');
  await assertSession(t, await signInAs(lanyard.url, as(password!)), lanyard.url, true, 'the printed password');

  const again = /^ {2}(\S+)$/m.exec((await lanyard_(lanyard, [...target, '--generate'])).stdout)?.[1];
  t.not(again, password, 'another password each time');
});

t.test('--stdin: read from a pipe less one final line break, never printed; short ones refused', async (t) => {
  const lanyard = await startLanyard(t);
  const chosen = 'a chosen pass phrase ';
  const run = await lanyard_(lanyard, [...target, '--stdin'], `${chosen}\n`);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /password set for Tess Teacher \(teacher\) at Demo School/);
  t.notMatch(run.stdout + run.stderr, /pass phrase/, 'the password is not printed');
  await assertSession(t, await signInAs(lanyard.url, as(chosen)), lanyard.url, true, 'signs in with exactly what was piped, its spaces kept');

  for (const [what, input] of [['empty', ''], ['a newline only', '\n'], ['seven characters', '1234567\n']] as const) {
    const refused = await lanyard_(lanyard, [...target, '--stdin'], input);
    t.equal(refused.code, 1, `${what}: refused`);
    t.match(refused.stderr, /a password is 8 to 1024 characters; nothing was changed/, `${what}: says why`);
  }
  await assertSession(t, await signInAs(lanyard.url, as(chosen)), lanyard.url, true, 'the password is unchanged after the refusals');
});

t.test('--stdin at a terminal: asked twice, nothing echoed; two different answers change nothing', async (t) => {
  const lanyard = await startLanyard(t);
  const typed = 'typed-at-the-terminal';
  const differ = await atTerminal(lanyard, [typed, 'something-else-typed']);
  t.equal(differ.code, 1);
  t.match(differ.stdout, /the two passwords differ; nothing was changed/);
  await assertSession(t, await signInAs(lanyard.url, as(TEACHER.password)), lanyard.url, true, 'still the old password');

  const run = await atTerminal(lanyard, [typed, typed]);
  t.equal(run.code, 0, run.stdout);
  t.match(run.stdout, /password: [\s\S]*password again: [\s\S]*password set for Tess Teacher/, 'prompted twice on the terminal');
  t.notMatch(run.stdout, /typed-at/, 'what was typed is not echoed');
  await assertSession(t, await signInAs(lanyard.url, as(typed)), lanyard.url, true, 'the typed password signs in');
});

t.test('one of --generate and --stdin; an unknown user is named', async (t) => {
  const lanyard = await startLanyard(t);
  for (const flags of [[], ['--generate', '--stdin']]) {
    const run = await lanyard_(lanyard, [...target, ...flags]);
    t.equal(run.code, 1, `${flags.join(' ') || 'neither'}: refused`);
    t.match(run.stderr, /give --generate or --stdin \(one of them\); see lanyard users password --help/);
  }
  const unknown = await lanyard_(lanyard, ['users', 'password', '--org', 'demo-school', '--user', 'nobody', '--generate']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /no user "nobody" in Demo School/);
  t.equal(unknown.stdout, '', 'no password printed for nobody');
});

/**
 * The command on a pseudo-terminal (util-linux `script`), answering each prompt as it appears: typed any
 * earlier, the terminal would echo the line before Lanyard has turned echo off.
 */
function atTerminal(l: Lanyard, answers: string[]): Promise<Run> {
  const command = [process.execPath, ...LANYARD_ARGV, ...target, '--stdin'].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb', ...compileCacheEnv(), ...storeEnv(l) },
    });
    let stdout = '';
    let answered = 0;
    child.stdout.on('data', (d) => {
      stdout += String(d);
      const prompts = stdout.match(/password( again)?: /g)?.length ?? 0;
      while (answered < prompts && answered < answers.length) child.stdin.write(`${answers[answered++]}\r`);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
  });
}
