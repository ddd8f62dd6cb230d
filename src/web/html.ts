/** Minimal, safe HTML templating: every interpolated value goes through `esc` unless wrapped in `raw`. */
export class Raw {
  constructor(readonly value: string) {}
}
export const raw = (value: string) => new Raw(value);

export function esc(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; arrays are joined; Raw is kept. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const render = (x: unknown): string =>
      x instanceof Raw ? x.value : Array.isArray(x) ? x.map(render).join('') : x === undefined || x === false || x === null ? '' : esc(x);
    out += render(v) + strings[i + 1]!;
  });
  return new Raw(out);
}
