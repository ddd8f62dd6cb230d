import type { StoredClient } from '../../../adapters/store.js';
import { appReceives } from '../../clients/app-receives.js';
import type { AppChoices, AskingApp } from '../app-choices.js';
import type { SchoolApp } from '../../clients/school-apps.js';

/** /school/api's JSON of the school's apps (app-schemas.ts), as the console's Apps page lists them. */

const appJson = (c: StoredClient, issuer: string) => ({
  client_id: c.clientId,
  name: c.name,
  ...(c.description ? { description: c.description } : {}),
  // A claim the console names with another (`given_name, family_name`) is two claims here.
  receives: appReceives(c, issuer).map((s) => ({ scope: s.scope, claims: s.claims.flatMap((x) => x.claim.split(', ')) })),
});

export const schoolAppJson = (a: SchoolApp, place: number, issuer: string) => ({
  ...appJson(a.client, issuer),
  status: a.client.status,
  place,
  source: a.connection?.source ?? 'every_school',
  user_types: a.connection?.userTypes ?? null,
  changeable: !!a.connection && a.connection.source !== 'config',
});

const requestJson = (r: AskingApp, issuer: string) => ({
  ...appJson(r.client, issuer),
  status: r.request.status,
  team: r.team,
  ...(r.request.note ? { note: r.request.note } : {}),
  requested_at: r.request.requestedAt,
  ...(r.request.answer ? { answer: r.request.answer } : {}),
  ...(r.request.answeredAt ? { answered_at: r.request.answeredAt } : {}),
});

export const appsJson = (choices: AppChoices, issuer: string) => ({
  connections: choices.apps.map((a, i) => schoolAppJson(a, i + 1, issuer)),
  requests: [...choices.asking, ...choices.declined].map((r) => requestJson(r, issuer)),
  offered: choices.offered.map((c) => appJson(c, issuer)),
});
