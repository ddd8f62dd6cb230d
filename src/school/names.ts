/** How the console names a person: given and family name, or the username when both are empty. */
export const fullName = (u: { givenName: string; familyName: string; username: string }): string =>
  `${u.givenName} ${u.familyName}`.trim() || u.username;
