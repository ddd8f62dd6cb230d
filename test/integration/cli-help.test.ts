import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { isGroup } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { projectRoot } from '../../src/package-files.js';
import { lanyard } from '../helpers/cli.js';
import { writeConfig } from '../helpers/config-file.js';
import { freePort } from '../helpers/lanyard.js';

const COOKIE_KEYS = `${'a'.repeat(32)},${'b'.repeat(40)}`;

t.test('lanyard --help, lanyard help and lanyard alone list every command', async (t) => {
  for (const args of [['--help'], ['help'], ['-h'], []]) {
    const r = await lanyard(args);
    t.equal(r.code, 0, `lanyard ${args.join(' ')}: exit 0`);
    t.match(r.stdout, /^Usage: lanyard <command>/);
    for (const line of ['serve', 'import <file.json>', 'users emoji --org SLUG --user USERNAME', 'badges print --org SLUG',
      'keys rotate --now', 'store copy --from URL --to URL', 'check-config [file.json] [--production]']) {
      t.match(r.stdout, `\n  ${line}`, `lanyard ${args.join(' ')}: lists ${line}`);
    }
    t.equal(r.stderr, '');
  }
});

t.test('every group and every command answers --help with its usage, exit 0', async (t) => {
  const runs: [string[], RegExp][] = [];
  for (const entry of COMMANDS) {
    if (isGroup(entry)) {
      runs.push([[entry.name, '--help'], new RegExp(`^Usage: lanyard ${entry.name} <command>`)]);
      for (const cmd of entry.commands) runs.push([[entry.name, cmd.name, '--help'], new RegExp(`^Usage: lanyard ${entry.name} ${cmd.name}\\b`)]);
    } else {
      runs.push([[entry.name, '--help'], new RegExp(`^Usage: lanyard ${entry.name}\\b`)]);
    }
  }
  runs.push([['help', 'users'], /^Usage: lanyard users <command>[\s\S]*\n {2}emoji --org SLUG --user USERNAME/]);
  runs.push([['help', 'users', 'emoji'], /^Usage: lanyard users emoji --org SLUG --user USERNAME\n[\s\S]*--org SLUG[\s\S]*--user USERNAME/]);
  runs.push([['badges', 'print', '-h'], /--types student,employee/]);
  // Two at a time: each run loads all of Lanyard.
  for (let i = 0; i < runs.length; i += 2) {
    await Promise.all(runs.slice(i, i + 2).map(async ([args, usage]) => {
      const r = await lanyard(args);
      t.equal(r.code, 0, `lanyard ${args.join(' ')}: exit 0 ${r.stderr}`);
      t.match(r.stdout, usage, `lanyard ${args.join(' ')}: usage`);
    }));
  }
});

t.test('an unknown command or option: one line, the likely meaning, where the help is; exit 1', async (t) => {
  const cases: [string[], string][] = [
    [['users', 'emoji', '--orgs', 'demo-school', '--user', 'pupil'], 'lanyard: unknown option --orgs (did you mean --org?); see lanyard users emoji --help\n'],
    [['usres'], 'lanyard: unknown command "usres" (did you mean "users"?); see lanyard --help\n'],
    [['users', 'emojii'], 'lanyard: unknown users command "emojii" (did you mean "emoji"?); see lanyard users --help\n'],
    [['keys', 'list', '--jsn'], 'lanyard: unknown option --jsn (did you mean --json?); see lanyard keys list --help\n'],
    [['serve', '--port', '3000'], 'lanyard: unknown option --port (lanyard serve takes no options); see lanyard serve --help\n'],
    [['badges', 'print', '--org'], 'lanyard: --org needs a value (--org SLUG); see lanyard badges print --help\n'],
    [['import', 'a.json', 'b.json'], 'lanyard: unexpected argument "b.json"; see lanyard import --help\n'],
    [['import'], 'lanyard: import needs <file.json>; see lanyard import --help\n'],
  ];
  for (const [args, message] of cases) {
    const r = await lanyard(args);
    t.equal(r.code, 1, `lanyard ${args.join(' ')}: exit 1`);
    t.equal(r.stderr, message, `lanyard ${args.join(' ')}`);
    t.equal(r.stdout, '');
  }
});

/** The problem lines of a refusal: "  - …". */
const problems = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('  - ')).map((l) => l.slice(4)).sort();

t.test('check-config --production lists every reason serve would refuse, and agrees with serve', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-check-'));
  const file = writeConfig((c) => { c.clients[0]!.redirect_uris = ['http://app.example.org/callback']; });
  const env = { LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}`, PORT: String(await freePort()) };

  const dev = await lanyard(['check-config', file], env);
  t.equal(dev.code, 0, 'outside production the file is valid');
  t.match(dev.stdout, `${file}: valid (1 client(s)); add --production to apply the production rules too`);
  t.match(dev.stdout, /^warning: DEVELOPMENT CONFIGURATION/m, 'with its warnings');

  const checked = await lanyard(['check-config', file, '--production'], env);
  t.equal(checked.code, 78, 'exit 78, as serve');
  t.match(checked.stderr, /^lanyard: serve would refuse to start \(production rules\), 9 problem\(s\):\n/);
  const reasons = problems(checked.stderr);
  for (const reason of ['LANYARD_COOKIE_KEYS: required in production', 'LANYARD_ISSUER: "http://localhost:',
    `${file}: /development:`, `${file}: /clients/0/secrets:`, `${file}: /clients/0/redirect_uris/0:`,
    `${file}: /organisations/0/users/0/password:`, `${file}: /organisations/0/users/1/password:`,
    `${file}: /organisations/0/users/2/emoji_password:`, `${file}: /organisations/0/users/3/badge_code:`]) {
    t.ok(reasons.some((r) => r.startsWith(reason)), `names ${reason}`);
  }
  t.equal(reasons.length, 9);

  const byEnv = await lanyard(['check-config', file], { ...env, NODE_ENV: 'production' });
  t.equal(byEnv.code, 78, 'NODE_ENV=production applies the same rules');
  t.same(problems(byEnv.stderr), reasons);

  const served = await lanyard(['serve'], { ...env, NODE_ENV: 'production', LANYARD_CONFIG: file });
  t.equal(served.code, 78, 'serve refuses it');
  t.same(problems(served.stderr), reasons, 'for exactly the reasons check-config listed');

  const demo = await lanyard(['check-config'], { ...env, NODE_ENV: 'production' });
  t.equal(demo.code, 78);
  t.match(demo.stderr, 'LANYARD_CONFIG: is unset, and the demo configuration is development-only');
});

t.test('check-config --production passes what production accepts', async (t) => {
  const example = join(projectRoot, 'config', 'example.json');
  const env = { LANYARD_ISSUER: 'https://id.example.org', LANYARD_COOKIE_KEYS: COOKIE_KEYS };
  const r = await lanyard(['check-config', example, '--production'], env);
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout, `${example}: valid for production (1 client(s))\n`);
  const noKeys = await lanyard(['check-config', example, '--production'], { LANYARD_ISSUER: 'https://id.example.org' });
  t.equal(noKeys.code, 78, 'the environment counts: no cookie keys');
  t.same(problems(noKeys.stderr), ['LANYARD_COOKIE_KEYS: required in production (comma-separated, each at least 32 characters)']);
});
