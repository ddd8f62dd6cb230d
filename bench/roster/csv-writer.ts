import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

/** A field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
const field = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Writes a CSV file as OneRoster exports are written (CRLF line ends), a batch of rows at a time, waiting
 * for the disk when the stream's buffer is full, so a file of any length takes little memory.
 */
export class CsvWriter {
  private readonly out: WriteStream;
  private batch: string[] = [];

  constructor(path: string, header: readonly string[]) {
    this.out = createWriteStream(path);
    this.batch.push(header.join(','));
  }

  async row(values: readonly string[]): Promise<void> {
    this.batch.push(values.map(field).join(','));
    if (this.batch.length >= 1000) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const text = `${this.batch.join('\r\n')}\r\n`;
    this.batch = [];
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}
