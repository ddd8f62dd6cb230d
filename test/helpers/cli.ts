import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/paths.js';

export interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the real `lanyard` command (from source, through tsx). */
export function lanyard(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli.ts'), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
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

