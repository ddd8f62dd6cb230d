import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { filesByName, type ExportFile, type ExportFiles } from './export-files.js';

/** The plain files directly in a folder (sub-folders and hidden files are not part of an export). */
export async function folderFiles(dir: string): Promise<ExportFiles> {
  const files: ExportFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const { size } = await stat(path);
    files.push({ name: entry.name, size, open: async () => createReadStream(path) });
  }
  return filesByName(files, async () => undefined);
}
