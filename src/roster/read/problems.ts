import type { SourceError } from '../source.js';

/**
 * The errors found in an export, kept in the order found, at most `max` of them: past that they are only
 * counted, and `list()` ends with one entry saying how many more there were. Readers add to it and go on:
 * a problem in the data is never thrown.
 */
export class Problems {
  private readonly kept: SourceError[] = [];
  private more = 0;

  constructor(private readonly max: number) {}

  add(file: string, line: number, column: string, message: string, value?: string): void {
    if (this.kept.length >= this.max) {
      this.more++;
      return;
    }
    const error: SourceError = { file, line, column, message };
    if (value !== undefined) error.value = value;
    this.kept.push(error);
  }

  /** How many were found, kept or not. */
  get count(): number {
    return this.kept.length + this.more;
  }

  list(): SourceError[] {
    if (this.more === 0) return [...this.kept];
    return [...this.kept, { file: '', line: 0, column: '', message: `…and ${this.more} more error${this.more === 1 ? '' : 's'}` }];
  }
}
