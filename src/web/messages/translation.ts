/** Another language's file for a part of the catalogue: exactly the English file's keys, each a message. */
export type Translation<English> = { readonly [K in keyof English]: string };
