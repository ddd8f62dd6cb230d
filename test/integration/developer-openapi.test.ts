import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import pino from 'pino';
import t from 'tap';
import type { DeveloperAccount } from '../../adapters/store.js';
import { systemClock } from '../../src/clock.js';
import { actorOf, OPERATOR } from '../../src/developer/actor.js';
import { hashCredential } from '../../src/accounts/credential-hasher.js';
import { ApiTokens } from '../../src/developer/api-tokens.js';
import { normalisePassword } from '../../src/developer/developer-password.js';
import { AppService } from '../../src/developer/app-service.js';
import { type Lanyard, startLanyard } from '../helpers/lanyard.js';

/**
 * The OpenAPI document of /developer/api (docs/developer-area.md), generated from the route schemas so that
 * request validation and documentation cannot drift, and held against what the routes accept: a valid OpenAPI 3.1 document; exactly the routes Fastify has; every documented request body
 * enforced as documented (its example accepted; a missing required field, an extra field, a wrong type
 * refused with that field's path); the documented security enforced; answers shaped as documented.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const API = '/developer/api';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

async function developer(lanyard: Lanyard, name: string, email?: string, o: { twoStep?: boolean } = {}): Promise<{ account: DeveloperAccount; token: string }> {
  const now = new Date().toISOString();
  const account: DeveloperAccount = {
    // A live app's team signs in with a second factor (its secret is never read here: tokens act for the account).
    ...(o.twoStep ? { totpSecret: 'unused' } : {}),
    id: `dev_${name.toLowerCase()}`, email: email ?? `${name.toLowerCase()}@example.com`, displayName: name,
    // The password of the token example's body: creating a token through the API asks for it again.
    passwordHash: await hashCredential(normalisePassword('correct horse battery staple')),
    createdAt: now, updatedAt: now, emailVerifiedAt: now, // as an account made through an invitation link
  };
  await lanyard.store.createDeveloper(account);
  const { token } = await new ApiTokens({ store: lanyard.store, clock: systemClock, log: pino({ level: 'silent' }) }).create(account, { label: 'test', expiresInDays: 90 });
  return { account, token };
}

/**
 * Fastify's own table of routes (printRoutes without a common prefix): `METHOD /path/{param}` for every
 * route under /developer/api, HEAD left out (Fastify adds one to every GET).
 */
function fastifyRoutes(printed: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    if (!m[3] || !path.startsWith(API)) continue;
    for (const method of m[3].split(', ')) {
      if (method !== 'HEAD') out.add(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
  }
  return out;
}

const lanyard = await startLanyard(t);
const ada = await developer(lanyard, 'Ada');
const res = await fetch(`${lanyard.url}${API}/openapi.json`);
const doc: Json = await res.json();

const operations: { method: string; path: string; op: Json }[] = Object.entries(doc.paths as Json)
  .flatMap(([path, item]: [string, Json]) => METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })));

/** Resolves `#/components/schemas/X` references, for reading the document. */
const resolve = (schema: Json): Json => {
  if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  return schema;
};

/** A validator of answers against the document's own schemas (JSON Schema 2020-12, as OpenAPI 3.1 says). */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components });
const answerMatches = (schema: Json, body: unknown) => {
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  const validate = ajv.compile(rewritten);
  return validate(body) ? [] : validate.errors;
};

const call = async (method: string, path: string, body?: unknown, token: string | null = ada.token) => {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${lanyard.url}${path}`, { method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
};

t.test('the document is served without a token, is valid OpenAPI 3.1, and has named components', async (t) => {
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.equal(doc.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.same(result.errors, undefined, 'no validation errors');
  t.ok(result.valid, 'valid against the OpenAPI 3.1 schema');
  t.equal(validator.version, '3.1');
  for (const name of ['App', 'Error', 'ApiToken', 'CreatedApiToken', 'ClientSecret', 'CreatedClientSecret', 'TeamMember', 'InvitationRecorded', 'Invitation', 'HistoryEntry', 'Sandbox', 'Me']) {
    t.ok(doc.components.schemas[name], `components.schemas.${name}`);
  }
  t.notOk(Object.keys(doc.components.schemas).some((k) => k.startsWith('def-')), 'every component has its own name');
  t.match(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' });
  t.same(doc.servers, [{ url: new URL(lanyard.url).origin }]);
  const ids = operations.map((o) => o.op.operationId);
  t.equal(new Set(ids).size, ids.length, 'every operation has its own operationId');
  t.notOk(ids.includes(undefined));
});

t.test('the document lists exactly the routes Fastify has under /developer/api', async (t) => {
  const routes = fastifyRoutes(lanyard.app.printRoutes({ commonPrefix: false }));
  const documented = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
  t.ok(routes.size >= 24, `Fastify has ${routes.size} routes there`);
  t.same([...routes].filter((r) => !documented.has(r)), [], 'no route left undocumented');
  t.same([...documented].filter((r) => !routes.has(r)), [], 'no documented route missing');
  t.ok(Object.keys(doc.paths).every((p) => p.startsWith(`${API}/`)), 'nothing outside /developer/api');
  for (const fixed of [
    'GET /developer/api/openapi.json', 'GET /developer/api/me', 'GET /developer/api/tokens', 'POST /developer/api/tokens',
    'DELETE /developer/api/tokens/{token_id}', 'GET /developer/api/apps', 'POST /developer/api/apps', 'GET /developer/api/apps/{client_id}',
    'PATCH /developer/api/apps/{client_id}', 'DELETE /developer/api/apps/{client_id}', 'POST /developer/api/apps/{client_id}/redirect_uris',
    'DELETE /developer/api/apps/{client_id}/redirect_uris', 'GET /developer/api/apps/{client_id}/secrets', 'POST /developer/api/apps/{client_id}/secrets',
    'DELETE /developer/api/apps/{client_id}/secrets/{secret_id}', 'PUT /developer/api/apps/{client_id}/default_scopes',
    'PUT /developer/api/apps/{client_id}/logout_url', 'DELETE /developer/api/apps/{client_id}/logout_url', 'GET /developer/api/apps/{client_id}/team',
    'PUT /developer/api/apps/{client_id}/initiate_login_uri', 'DELETE /developer/api/apps/{client_id}/initiate_login_uri',
    'POST /developer/api/apps/{client_id}/team', 'DELETE /developer/api/apps/{client_id}/team/{developer_id}', 'GET /developer/api/apps/{client_id}/history',
    'POST /developer/api/apps/{client_id}/go-live', 'GET /developer/api/sandbox', 'GET /developer/api/invitations',
    'POST /developer/api/invitations/{client_id}/accept', 'POST /developer/api/invitations/{client_id}/decline',
  ]) t.ok(documented.has(fixed), fixed);
});

t.test('every operation documents its errors, and the security it declares is the security it enforces', async (t) => {
  for (const { method, path, op } of operations) {
    const name = `${method.toUpperCase()} ${path}`;
    const open = Array.isArray(op.security) && op.security.length === 0;
    const url = path.replace(/\{[^}]+\}/g, 'app_unknown');
    const anonymous = await call(method, url, undefined, null);
    if (open) {
      t.equal(anonymous.status, 200, `${name}: open, as documented`);
      continue;
    }
    t.same(op.security ?? doc.security, [{ bearerAuth: [] }], `${name}: bearer`);
    t.equal(anonymous.status, 401, `${name}: 401 without a token`);
    t.same(answerMatches(op.responses['401'].content['application/json'].schema, anonymous.json), [], `${name}: the 401 is shaped as documented`);
    t.ok(op.responses['503'] && op.responses['500'], `${name}: 500 and 503 documented`);
    if (op.requestBody) t.ok(op.responses['400'], `${name}: 400 documented`);
    if (path.includes('{')) t.ok(op.responses['404'], `${name}: 404 documented`);
    for (const status of Object.keys(op.responses)) {
      t.match(op.responses[status].headers?.['Cache-Control'], { schema: { enum: ['no-store'] } }, `${name} ${status}: no-store documented`);
    }
  }
});

t.test('every documented request body is enforced as documented, and its example is accepted', async (t) => {
  // The things path parameters name: an app of Ada's with a secret, and a colleague in its team.
  const { json: app } = await call('post', `${API}/apps`, { name: 'Fixture' });
  const { json: secret } = await call('post', `${API}/apps/${app.client_id}/secrets`, { label: 'fixture' });
  // And an app of another developer's, to whose team Ada is invited (an invitation's answer names it).
  const host = await developer(lanyard, 'Host');
  const hosts = new AppService({ store: lanyard.store, clock: systemClock, log: pino({ level: 'silent' }) });
  const { clientId: invitedTo } = await hosts.register(actorOf(host.account), { name: 'Invited' });
  await hosts.addTeamMember(actorOf(host.account), invitedTo, ada.account.email);
  // Asking a school takes a live app: one of Lin's, who signs in with a second factor as a live app's team must.
  const lin = await developer(lanyard, 'Lin', undefined, { twoStep: true });
  const { clientId: live } = await hosts.register(actorOf(lin.account), { name: 'Live' });
  await hosts.addCallback(actorOf(lin.account), live, 'https://live.example/cb');
  await hosts.requestLive(actorOf(lin.account), live);
  await hosts.approve(OPERATOR, live);
  const bodies = operations.filter((o) => o.op.requestBody);
  t.ok(bodies.length >= 8, `${bodies.length} documented request bodies`);
  for (const { method, path, op } of bodies) {
    const name = `${method.toUpperCase()} ${path}`;
    const media = op.requestBody.content['application/json'];
    t.same(Object.keys(op.requestBody.content), ['application/json'], `${name}: JSON only`);
    const schema = resolve(media.schema);
    t.equal(schema.additionalProperties, false, `${name}: a closed object`);
    const example = schema.examples?.[0];
    t.ok(example, `${name}: documented with an example`);
    if (!example) continue;
    for (const [key, value] of Object.entries(example)) {
      // The example's team mate must exist to be added; each example address is made an account.
      if (key === 'email') await developer(lanyard, 'Colleague', value as string).catch(() => undefined);
    }
    const asks = path.endsWith('/schools');
    const url = path.replace('{client_id}', path.startsWith(`${API}/invitations/`) ? invitedTo : asks ? live : app.client_id).replace('{secret_id}', secret.id);
    const token = asks ? lin.token : ada.token;
    const refused = async (what: string, body: unknown, pointer: string) => {
      const r = await call(method, url, body, token);
      t.equal(r.status, 400, `${name}: ${what} refused`);
      t.ok(r.json?.fields?.some((f: { path: string }) => f.path === pointer), `${name}: ${what} → field ${pointer}`);
      t.same(answerMatches(op.responses['400'].content['application/json'].schema, r.json), [], `${name}: the 400 is shaped as documented`);
    };
    for (const required of schema.required ?? []) {
      const { [required]: _gone, ...rest } = example;
      await refused(`without ${required}`, rest, `/${required}`);
    }
    if (schema.minProperties) await refused('an empty object', {}, '');
    await refused('an extra property', { ...example, not_documented: true }, '/not_documented');
    for (const [key, prop] of Object.entries(schema.properties) as [string, Json][]) {
      const wrong = prop.type === 'string' ? 42 : 'a string';
      await refused(`${key} of the wrong type`, { ...example, [key]: wrong }, `/${key}`);
      if (prop.maxLength) await refused(`${key} over ${prop.maxLength} characters`, { ...example, [key]: 'x'.repeat(prop.maxLength + 1) }, `/${key}`);
      if (prop.minLength) await refused(`${key} under ${prop.minLength} characters`, { ...example, [key]: 'x'.repeat(prop.minLength - 1) }, `/${key}`);
      if (prop.maximum !== undefined) await refused(`${key} over ${prop.maximum}`, { ...example, [key]: prop.maximum + 1 }, `/${key}`);
      if (prop.minimum !== undefined) await refused(`${key} under ${prop.minimum}`, { ...example, [key]: prop.minimum - 1 }, `/${key}`);
      if (prop.format === 'date-time') await refused(`${key} not a date-time`, { ...example, [key]: 'next tuesday' }, `/${key}`);
    }
    await refused('a list instead of an object', [example], '');

    const accepted = await call(method, url, example, token);
    t.ok(accepted.status >= 200 && accepted.status < 300, `${name}: its example is accepted (${accepted.status} ${JSON.stringify(accepted.json?.fields ?? '')})`);
    const documented = op.responses[String(accepted.status)];
    t.ok(documented, `${name}: ${accepted.status} is a documented answer`);
    if (documented?.content) {
      t.same(answerMatches(documented.content['application/json'].schema, accepted.json), [], `${name}: the answer is shaped as documented`);
    }
  }
});

t.test('documented parameters are enforced: required query parameters and integer bounds', async (t) => {
  const { json: app } = await call('post', `${API}/apps`, { name: 'Parameters' });
  for (const { method, path, op } of operations) {
    const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query');
    const url = path.replace('{client_id}', app.client_id);
    for (const p of query) {
      const name = `${method.toUpperCase()} ${path}?${p.name}`;
      if (p.required) {
        const r = await call(method, url);
        t.equal(r.status, 400, `${name}: required`);
        t.ok(r.json.fields.some((f: { path: string }) => f.path === `/${p.name}`), `${name}: named when missing`);
      }
      if (p.schema.type === 'integer') {
        for (const bad of [p.schema.minimum - 1, p.schema.maximum + 1, 'x']) {
          const r = await call(method, `${url}?${p.name}=${bad}`);
          t.equal(r.status, 400, `${name}=${bad} refused`);
        }
        const good = await call(method, `${url}?${p.name}=${p.schema.minimum}`);
        t.equal(good.status, 200, `${name}=${p.schema.minimum} accepted`);
      }
    }
    for (const p of (op.parameters ?? []).filter((x: Json) => x.in === 'path')) {
      t.ok(path.includes(`{${p.name}}`), `${method} ${path}: path parameter ${p.name} is in the path`);
      t.equal(p.required, true);
    }
  }
});

t.test('the answers of read operations are shaped as documented', async (t) => {
  const { json: app } = await call('post', `${API}/apps`, { name: 'Shapes', homepage_url: 'https://shapes.example/' });
  await call('post', `${API}/apps/${app.client_id}/secrets`, { label: 'one', expires_at: '2099-01-01T00:00:00Z' });
  for (const { method, path, op } of operations.filter((o) => o.method === 'get' && o.path !== `${API}/openapi.json`)) {
    const r = await call('get', path.replace('{client_id}', app.client_id));
    t.equal(r.status, 200, `GET ${path}`);
    t.same(answerMatches(op.responses['200'].content['application/json'].schema, r.json), [], `GET ${path}: as documented`);
    t.ok(method);
  }
});
