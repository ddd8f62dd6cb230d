/** The error of one field among a ValidationError's problems. */
export const fieldError = (fields: { path: string; message: string }[], name: string): string | undefined =>
  fields.find((f) => f.path === name)?.message;
