import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Problems } from './problems.js';
import { filesByName, type ExportFile, type ExportFiles } from './export-files.js';

/**
 * A zip export, read with yauzl: its central directory is listed first (entries are then opened in any
 * order, each streamed and inflated as it is read; yauzl checks each entry's size against the directory's,
 * so a zip bomb cannot exceed what was declared and limited). Entry names are checked here: an absolute
 * path or a `..` is refused (an error, and the export is not read). Folders, macOS's `__MACOSX/` and
 * hidden files are skipped; the files are those at the top, or in the zip's one top folder when a tool
 * zipped the folder itself.
 */
export async function zipFiles(path: string, label: string, problems: Problems, maxEntries: number): Promise<ExportFiles> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false }, (err, z) => (err ? reject(err) : resolve(z))));
  const close = async () => zip.close();
  if (zip.entryCount > maxEntries) {
    problems.add(label, 0, '', `the zip lists ${zip.entryCount} entries; an export has a few (at most ${maxEntries} are read)`);
    await close();
    return filesByName([], async () => undefined);
  }
  const entries: { name: string; entry: yauzl.Entry }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const raw = entry.fileName as unknown as Buffer; // decodeStrings: false
      const name = raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? 'utf8' : 'latin1').replace(/\\/g, '/');
      const refusal = yauzl.validateFileName(name);
      if (refusal !== null) problems.add(name, 0, '', `refused zip entry: ${refusal.replace(/:.*$/, '')} (an export's files stay inside it)`);
      else entries.push({ name, entry });
      zip.readEntry();
    });
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  const files = entries.filter(({ name }) => !name.endsWith('/') && !name.startsWith('__MACOSX/') && !/(^|\/)\./.test(name));
  const tops = new Set(files.map(({ name }) => (name.includes('/') ? name.slice(0, name.indexOf('/') + 1) : '')));
  const folder = !tops.has('') && tops.size === 1 ? [...tops][0]! : '';
  const listed: ExportFile[] = files
    .filter(({ name }) => name.startsWith(folder) && !name.slice(folder.length).includes('/'))
    .map(({ name, entry }) => ({
      name: name.slice(folder.length),
      size: entry.uncompressedSize,
      open: () => new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)))),
    }));
  return filesByName(listed, close);
}
