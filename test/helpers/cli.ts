import { spawn } from 'node:child_process';
import { projectRoot } from '../../src/package-files.js';
import { LANYARD_ARGV } from './lanyard-command.js';
import { compileCacheEnv } from './child-env.js';

export interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the real `lanyard` command (helpers/lanyard-command.ts). */
export function lanyard(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...LANYARD_ARGV, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...compileCacheEnv(), ...env },
      cwd: projectRoot,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += String(d); });
    child.stderr.on('data', (d) => { stderr += String(d); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

