import { createHash } from 'node:crypto';

/**
 * The digest of an export (RosterSource.digest): sha256 over the files read, in name order, each as its
 * name, a NUL, the sha256 of its bytes (hex) and a line feed. The same files give the same digest whether
 * they come as a folder or a zip (and whichever order they were read in).
 */
export function exportDigest(fileHashes: ReadonlyMap<string, string>): string {
  const digest = createHash('sha256');
  for (const name of [...fileHashes.keys()].sort()) digest.update(`${name}\0${fileHashes.get(name)}\n`);
  return digest.digest('hex');
}
