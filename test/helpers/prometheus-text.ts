/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: it throws, naming the
 * line, on anything a Prometheus server would refuse or misread (a malformed sample, a bad name or escape, a
 * family split in two or typed after its samples, a duplicate series, a histogram whose buckets do not add
 * up), and returns every sample to look values up in.
 */

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Family { name: string; help?: string; type?: string; samples: Sample[] }
export interface Exposition { families: Map<string, Family>; samples: Sample[] }

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count', ''] };

/** As Prometheus reads it (Go's strconv.ParseFloat): NaN and Inf in any case (prom-client writes `Nan`). */
function parseValue(text: string, where: string): number {
  if (/^nan$/i.test(text)) return NaN;
  const inf = /^([-+]?)inf(inity)?$/i.exec(text);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: "${text}" is not a sample value`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` from `at` in `line`: the labels and where they end. */
function parseLabels(line: string, at: number, where: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (line[i] !== '}') {
    const eq = line.indexOf('=', i);
    if (eq === -1) throw new Error(`${where}: label without "="`);
    const name = line.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: "${name}" is not a label name`);
    if (name in labels) throw new Error(`${where}: label "${name}" given twice`);
    if (line[eq + 1] !== '"') throw new Error(`${where}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j += 1) {
      if (line[j] !== '\\') { value += line[j]; continue; }
      const next = line[j + 1];
      if (next === '\\' || next === '"') value += next;
      else if (next === 'n') value += '\n';
      else throw new Error(`${where}: bad escape \\${next ?? ''} in a label value`);
      j += 1;
    }
    if (j >= line.length) throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (line[i] === ',') i += 1;
    else if (line[i] !== '}') throw new Error(`${where}: expected "," or "}" after a label`);
  }
  return { labels, end: i + 1 };
}

function parseSample(line: string, where: string): Sample {
  const nameEnd = line.search(/[{ ]/);
  if (nameEnd === -1) throw new Error(`${where}: a sample needs a value`);
  const name = line.slice(0, nameEnd);
  if (!METRIC_NAME.test(name)) throw new Error(`${where}: "${name}" is not a metric name`);
  let labels: Record<string, string> = {};
  let rest = line.slice(nameEnd);
  if (rest.startsWith('{')) {
    const parsed = parseLabels(line, nameEnd, where);
    labels = parsed.labels;
    rest = line.slice(parsed.end);
  }
  const fields = rest.trim().split(/ +/);
  if (!rest.startsWith(' ') || fields.length < 1 || fields.length > 2 || fields[0] === '') throw new Error(`${where}: expected " value [timestamp]"`);
  if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`${where}: "${fields[1]}" is not a timestamp`);
  return { name, labels, value: parseValue(fields[0]!, where) };
}

/** The family a sample belongs to, given the families typed so far. */
function familyOf(name: string, families: Map<string, Family>): string {
  for (const [family, f] of families) {
    if ((SUFFIXES[f.type ?? ''] ?? ['']).some((s) => `${family}${s}` === name)) return family;
  }
  return name;
}

const seriesKey = (s: Sample, without?: string) =>
  `${s.name}{${Object.keys(s.labels).filter((k) => k !== without).sort().map((k) => `${k}=${JSON.stringify(s.labels[k])}`).join(',')}}`;

function checkHistogram(f: Family): void {
  const bySeries = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of f.samples) {
    const key = seriesKey({ ...s, name: '' }, 'le');
    const series = bySeries.get(key) ?? { buckets: [] };
    bySeries.set(key, series);
    if (s.name === `${f.name}_bucket`) {
      if (s.labels.le === undefined) throw new Error(`${f.name}: a bucket without "le"`);
      series.buckets.push([parseValue(s.labels.le, `${f.name} le`), s.value]);
    } else if (s.name === `${f.name}_count`) series.count = s.value;
  }
  for (const [key, { buckets, count }] of bySeries) {
    for (let i = 1; i < buckets.length; i += 1) {
      if (!(buckets[i]![0] > buckets[i - 1]![0]) || buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${f.name}${key}: buckets not increasing`);
    }
    const inf = buckets.at(-1);
    if (!inf || inf[0] !== Infinity) throw new Error(`${f.name}${key}: no +Inf bucket`);
    if (count !== inf[1]) throw new Error(`${f.name}${key}: _count ${count} is not the +Inf bucket ${inf[1]}`);
  }
}

export function parsePrometheusText(text: string): Exposition {
  const families = new Map<string, Family>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  let current: string | undefined;
  const enter = (name: string, where: string) => {
    if (current === name) return;
    if (families.get(name)?.samples.length) throw new Error(`${where}: the lines of ${name} are not one group`);
    current = name;
  };
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line === '') return;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta;
      if (!METRIC_NAME.test(name!)) throw new Error(`${where}: "${name}" is not a metric name`);
      enter(name!, where);
      const f = families.get(name!) ?? { name: name!, samples: [] };
      families.set(name!, f);
      if (kind === 'TYPE') {
        if (f.type || f.samples.length) throw new Error(`${where}: TYPE of ${name} given twice or after its samples`);
        if (!TYPES.has(rest)) throw new Error(`${where}: "${rest}" is not a metric type`);
        f.type = rest;
      } else {
        if (f.help !== undefined) throw new Error(`${where}: HELP of ${name} given twice`);
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new Error(`${where}: bad escape in HELP`);
        f.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      }
      return;
    }
    if (line.startsWith('#')) return; // a comment
    const sample = parseSample(line, where);
    const family = familyOf(sample.name, families);
    enter(family, where);
    const f = families.get(family) ?? { name: family, samples: [] };
    families.set(family, f);
    const key = seriesKey(sample);
    if (seen.has(key)) throw new Error(`${where}: ${key} given twice`);
    seen.add(key);
    f.samples.push(sample);
    samples.push(sample);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return { families, samples };
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(e: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name}${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}
