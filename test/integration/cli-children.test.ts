import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import argon2 from 'argon2';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../adapters/sqlite.js';
import type { Organisation, Store } from '../../adapters/store.js';
import { EMOJI_BANK, emojiGlyph } from '../../src/formats/emoji-bank.js';
import { findBadgeHolder } from '../../src/badges/badges.js';
import { labelPlacement, sheetLayout, toPixels } from '../../src/badges/label-layout.js';
import { crop, jsQR, run } from '../helpers/badge-pdf.js';
import { systemClock } from '../../src/clock.js';
import { demoConfigPath, projectRoot } from '../../src/package-files.js';
import { lanyard } from '../helpers/cli.js';
import { LANYARD_ARGV } from '../helpers/lanyard-command.js';
import { compileCacheEnv } from '../helpers/child-env.js';

/**
 * The children's sign-in commands through the real `lanyard` command, on a SQLite store in a temporary
 * directory holding the demo school (imported from config/demo.json: teacher, pupil, emoji-kid, badge-kid).
 * Badge sheets are read back as a printer would print them: rasterised by pdftoppm (poppler-utils), each
 * label's QR code decoded with jsQR, the printed text read with pdftotext.
 */
const DPI = 150;
const DEMO_BADGE = 'BADG-EDEM-0000-0000-0000-0000-01'; // badge-kid's code in config/demo.json

interface Demo { dir: string; env: Record<string, string>; store: Store; org: Organisation }

async function demoSchool(t: Test): Promise<Demo> {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-children-'));
  const env = { LANYARD_STORE: `sqlite:${join(dir, 'lanyard.db')}` };
  const imported = await lanyard(['import', demoConfigPath], env);
  if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const store = openSqliteStore(join(dir, 'lanyard.db'), systemClock);
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, env, store, org: (await store.findOrganisation('demo-school'))! };
}

/** The username a badge (typed or scanned) signs in as, or undefined. */
const holder = async (d: Demo, input: string) => (await findBadgeHolder(d.store, d.org, input))?.username;


/** What each of the first `count` label positions (Letter) holds: its QR payload and the code printed under it. */
async function readSheet(pdf: string, count: number): Promise<{ qr: string | undefined; code: string | undefined; text: string }[]> {
  const prefix = join(mkdtempSync(join(tmpdir(), 'lanyard-sheet-')), 'page');
  await run('pdftoppm', ['-r', `${DPI}`, '-png', pdf, prefix]);
  const dir = join(prefix, '..');
  const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).sort().map((f) => PNG.sync.read(readFileSync(join(dir, f))));
  rmSync(dir, { recursive: true, force: true });
  const layout = sheetLayout('letter');
  const labels = [];
  for (let index = 0; index < count; index++) {
    const { page, cell } = labelPlacement(layout, index);
    const png = pages[page];
    const px = toPixels(cell, DPI);
    const qr = png ? jsQR(crop(png, px), px.width, px.height)?.data : undefined;
    const box = toPixels(cell, 72);
    const { stdout } = await run('pdftotext', ['-raw', '-f', `${page + 1}`, '-l', `${page + 1}`, '-x', `${box.x}`, '-y', `${box.y}`,
      '-W', `${box.width}`, '-H', `${box.height}`, pdf, '-']).catch(() => ({ stdout: '' }));
    // The code may break after a dash to fit the label: joined again it is as printed.
    const code = /([0-9A-Z]{4}-){6}[0-9A-Z]{2}/.exec(stdout.replace(/-\s*\n/g, '-'))?.[0];
    labels.push({ qr, code, text: stdout });
  }
  return labels;
}

/** Runs `lanyard` keeping standard output as bytes (the PDF), with stdout a pipe, not a terminal. */
function lanyardBytes(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...LANYARD_ARGV, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), ...env },
      cwd: projectRoot,
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => { stderr += String(d); });
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
    child.stdin.end();
  });
}

t.test('users emoji: six pictures printed once; only an argon2id hash of them is kept', async (t) => {
  const d = await demoSchool(t);
  const issued = await lanyard(['users', 'emoji', '--org', 'demo-school', '--user', 'pupil'], d.env);
  t.equal(issued.code, 0, issued.stderr);
  t.equal(issued.stderr, '', 'nothing on stderr');
  const lines = issued.stdout.split('\n');
  t.equal(lines[0], 'emoji password for Pip Pupil (pupil) at Demo School:', 'says whose password it is');
  t.match(lines[2], /shown once/, 'says it is shown once');

  // "  🐶 dog  🍦 ice cream  …": each picture, a space, its name; two spaces between symbols.
  const symbols = lines[1]!.trim().split('  ').map((s) => {
    const space = s.indexOf(' ');
    return { glyph: s.slice(0, space), name: s.slice(space + 1) };
  });
  t.equal(symbols.length, 6, 'six symbols');
  const names = symbols.map((s) => s.name);
  t.ok(symbols.every((s) => emojiGlyph(s.name) === s.glyph), `each picture with its name: ${lines[1]!.trim()}`);
  t.ok(names.every((n) => EMOJI_BANK.some(([name]) => name === n)), 'all from the bank');
  t.equal(issued.stdout.split(lines[1]!).length, 2, 'the password appears once in the output');

  const pupil = (await d.store.findUserByUsername(d.org.id, 'pupil'))!;
  const hash = (await d.store.getCredential(pupil.id, 'emoji'))!;
  const params = /^\$argon2id\$v=19\$([^$]+)\$[^$]+\$[^$]+$/.exec(hash)?.[1];
  t.same(params?.split(',').sort(), ['m=19456', 'p=1', 't=2'], 'stored as argon2id with OWASP parameters');
  t.notOk(names.some((n) => hash.includes(n)), 'no name in the stored hash');
  t.ok(await argon2.verify(hash, names.join(',')), 'the hash verifies the canonical form (names joined by commas)');
  t.notOk(await argon2.verify(hash, [...names].reverse().join(',')), 'order matters');
  t.match(await d.store.getCredential(pupil.id, 'password'), /^\$argon2id\$/, 'the password is untouched');

  const again = await lanyard(['users', 'emoji', '--org', 'demo-school', '--user', 'pupil'], d.env);
  t.equal(again.code, 0);
  const newHash = (await d.store.getCredential(pupil.id, 'emoji'))!;
  t.not(newHash, hash, 'running it again resets the password');
  t.notOk(await argon2.verify(newHash, names.join(',')), 'the old pictures no longer work');
});

t.test('users emoji: a clear message and exit 1 when the target is missing or unknown', async (t) => {
  const d = await demoSchool(t);
  for (const [args, message] of [
    [['--org', 'demo-school'], /--user is required/],
    [['--user', 'pupil'], /--org is required/],
    [['--org', 'demo-school', '--user', 'nobody'], /no user "nobody" in Demo School/],
    [['--org', 'nowhere', '--user', 'pupil'], /no organisation "nowhere"/],
  ] as const) {
    const r = await lanyard(['users', 'emoji', ...args], d.env);
    t.equal(r.code, 1, `${args.join(' ')}: exit 1`);
    t.match(r.stderr, message, `${args.join(' ')}: ${r.stderr.trim()}`);
    t.equal(r.stdout, '', 'no password printed');
  }
  const missing = await lanyard(['users', 'emoji', '--org', 'demo-school'], d.env);
  t.equal(missing.stderr, 'lanyard: --user is required\n', 'just the reason: a command is not a failed startup');
  const kid = (await d.store.findUserByUsername(d.org.id, 'emoji-kid'))!;
  t.ok(await argon2.verify((await d.store.getCredential(kid.id, 'emoji'))!, 'dog,apple,rocket,star,cat,pizza'),
    "nobody's emoji password changed");
});

t.test('badges print → a sheet whose QR codes and printed codes sign in the right pupils; reprinting voids them', async (t) => {
  const d = await demoSchool(t);
  const out = join(d.dir, 'badges.pdf');
  const printed = await lanyard(['badges', 'print', '--org', 'demo-school', '--users', 'pupil,teacher', '--out', out], d.env);
  t.equal(printed.code, 0, printed.stderr);
  t.equal(printed.stdout, '', 'nothing on stdout');
  t.match(printed.stderr, /2 badge\(s\) issued for Demo School/);
  t.equal(statSync(out).mode & 0o777, 0o600, 'the sheet (secrets) is readable by its owner only');
  t.equal(readFileSync(out).subarray(0, 5).toString(), '%PDF-');

  const first = await readSheet(out, 3);
  t.same(await Promise.all(first.slice(0, 2).map((l) => holder(d, l.qr ?? ''))), ['pupil', 'teacher'], 'the QR codes: pupil, then teacher');
  t.same(await Promise.all(first.slice(0, 2).map((l) => holder(d, l.code ?? ''))), ['pupil', 'teacher'], 'the printed codes too');
  t.match(first[0]!.text, /Pip Pupil/, 'the first label names Pip Pupil');
  t.match(first[1]!.text, /Tess Teacher/, 'the second Tess Teacher');
  t.equal(first[2]!.qr, undefined, 'no third label');
  t.equal(await holder(d, DEMO_BADGE), 'badge-kid', "other users' badges are untouched");

  const reprint = await lanyard(['badges', 'print', '--org', 'demo-school', '--users', 'pupil,teacher', '--out', out], d.env);
  t.equal(reprint.code, 0, reprint.stderr);
  const second = await readSheet(out, 2);
  t.same(await Promise.all(first.slice(0, 2).map((l) => holder(d, l.qr!))), [undefined, undefined], 'the first sheet no longer works');
  t.same(await Promise.all(second.map((l) => holder(d, l.qr ?? ''))), ['pupil', 'teacher'], 'the new one does');

  // badges revoke --user: one pupil's badge.
  const one = await lanyard(['badges', 'revoke', '--org', 'demo-school', '--user', 'pupil'], d.env);
  t.equal(one.code, 0, one.stderr);
  t.equal(one.stdout, '1 badge(s) revoked for pupil in Demo School\n');
  t.equal(await holder(d, second[0]!.qr!), undefined, "pupil's badge no longer works");
  t.equal(await holder(d, second[1]!.qr!), 'teacher', "teacher's still does");
  const none = await lanyard(['badges', 'revoke', '--org', 'demo-school', '--user', 'pupil'], d.env);
  t.equal(none.stdout, '0 badge(s) revoked for pupil in Demo School\n', 'nothing left to revoke');

  // badges revoke without --user: the whole organisation.
  const all = await lanyard(['badges', 'revoke', '--org', 'demo-school'], d.env);
  t.equal(all.code, 0, all.stderr);
  t.equal(all.stdout, '2 badge(s) revoked in Demo School\n', "teacher's and badge-kid's");
  t.equal(await holder(d, second[1]!.qr!), undefined, "teacher's badge no longer works");
  t.equal(await holder(d, DEMO_BADGE), undefined, "badge-kid's no longer works");
});

t.test('badges print: a user named twice gets one badge, and every printed badge works', async (t) => {
  const d = await demoSchool(t);
  const out = join(d.dir, 'badges.pdf');
  const printed = await lanyard(['badges', 'print', '--org', 'demo-school', '--users', 'pupil,pupil', '--out', out], d.env);
  t.equal(printed.code, 0, printed.stderr);
  const labels = await readSheet(out, 2);
  t.equal(await holder(d, labels[0]!.qr ?? ''), 'pupil', 'the first label signs in pupil');
  t.equal(labels[1]!.qr, undefined, 'no second, dead label for the same pupil');
  t.match(printed.stderr, /1 badge\(s\) issued/);
});

t.test('badges print: without --out to a pipe, the PDF goes to standard output', async (t) => {
  const d = await demoSchool(t);
  const r = await lanyardBytes(['badges', 'print', '--org', 'demo-school', '--users', 'badge-kid'], d.env);
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout.subarray(0, 5).toString(), '%PDF-', 'standard output starts with the PDF magic');
  t.match(r.stdout.subarray(-8).toString(), /%%EOF\s*$/, 'and ends with the PDF trailer: nothing else was written to it');
  t.match(r.stderr, /1 badge\(s\) issued for Demo School/, 'the summary goes to stderr');
  const pdf = join(d.dir, 'from-stdout.pdf');
  writeFileSync(pdf, r.stdout);
  const [label] = await readSheet(pdf, 1);
  t.equal(await holder(d, label!.qr ?? ''), 'badge-kid', 'its QR code signs in badge-kid');
  t.equal(await holder(d, DEMO_BADGE), undefined, 'the badge from the config is replaced');
});

t.test('badges print: refuses to write a PDF to a terminal', async (t) => {
  const d = await demoSchool(t);
  const cmd = [process.execPath, ...LANYARD_ARGV, 'badges', 'print', '--org', 'demo-school'].join(' ');
  const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
    // script(1) runs the command with a pseudo-terminal as its standard output.
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), ...d.env }, cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (x) => { out += String(x); });
    child.stderr.on('data', (x) => { out += String(x); });
    child.on('close', (code) => resolve({ code, out }));
  });
  t.equal(r.code, 1, 'exit 1');
  t.match(r.out, /the sheet is a PDF: redirect it \(> badges\.pdf\) or use --out FILE/);
  t.notMatch(r.out, /%PDF-/, 'no PDF on the terminal');
  t.equal(await holder(d, DEMO_BADGE), 'badge-kid', 'and no badge was voided');
});

t.test('badges print: when the sheet cannot be written, no badge is voided', async (t) => {
  const d = await demoSchool(t);
  const out = join(d.dir, 'no-such-folder', 'badges.pdf');
  const r = await lanyard(['badges', 'print', '--org', 'demo-school', '--out', out], d.env);
  t.equal(r.code, 1, 'a missing folder: exit 1');
  t.match(r.stderr, /cannot write the sheet to \S*no-such-folder/, `names the path: ${r.stderr.trim()}`);
  t.notOk(existsSync(out));
  t.equal(await holder(d, DEMO_BADGE), 'badge-kid', "badge-kid's badge still works");

  const folder = await lanyard(['badges', 'print', '--org', 'demo-school', '--out', d.dir], d.env);
  t.equal(folder.code, 1, 'a folder as --out: exit 1');
  t.match(folder.stderr, /cannot write the sheet to .*: that is a folder/, folder.stderr.trim());
  t.equal(await holder(d, DEMO_BADGE), 'badge-kid', "badge-kid's badge still works");
});

t.test('badges: a clear message and exit 1 for an unknown organisation or user', async (t) => {
  const d = await demoSchool(t);
  const out = join(d.dir, 'badges.pdf');
  for (const [args, message] of [
    [['print', '--org', 'nowhere', '--out', out], /no organisation "nowhere"/],
    [['print', '--org', 'demo-school', '--users', 'pupil,nobody', '--out', out], /no user "nobody" in Demo School/],
    [['print', '--users', 'pupil', '--out', out], /--org is required/],
    [['print', '--org', 'demo-school', '--paper', 'a3', '--out', out], /--paper is letter or a4/],
    [['revoke', '--org', 'nowhere'], /no organisation "nowhere"/],
    [['revoke', '--org', 'demo-school', '--user', 'nobody'], /no user "nobody" in Demo School/],
  ] as const) {
    const r = await lanyard(['badges', ...args], d.env);
    t.equal(r.code, 1, `badges ${args.join(' ')}: exit 1`);
    t.match(r.stderr, message, r.stderr.trim());
  }
  t.notOk(existsSync(out), 'no sheet written');
  t.equal(await holder(d, DEMO_BADGE), 'badge-kid', 'no badge voided');
  const db = new Database(join(d.dir, 'lanyard.db'), { readonly: true });
  t.teardown(() => db.close());
  t.same(db.prepare('SELECT count(*) AS n FROM badges').get(), { n: 1 }, 'none issued either (pupil,nobody: all or nothing)');
});
