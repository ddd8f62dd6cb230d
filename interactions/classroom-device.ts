import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RosterClass, Store, User } from '../adapters/store.js';
import { classesForDevice } from '../src/accounts/device-classes.js';
import { type AvailabilitySources, mayClientSignIn } from '../src/clients/app-availability.js';
import { SANDBOX_SLUG } from '../src/config/reserved.js';
import { TooManyDevicesError, type TrustedDevice, type TrustedDevices } from '../src/accounts/trusted-devices.js';
import { LANYARD_CLIENT_ID } from '../src/clients/builtin-clients.js';
import { sessionFormToken, sessionFormTokenValid } from '../src/provider/session-form.js';
import { ROUTES } from '../src/routes.js';
import { spendOwnCode } from '../src/provider/own-code.js';
import type { ProviderHost } from '../src/provider/provider-host.js';
import { endBrowserSession, type SignedIn, signedInSession } from '../src/provider/session.js';
import { sendHtml } from './context.js';
import type { DeviceCookies } from '../src/accounts/device-cookies.js';
import { classroomDevicePage, type ClassroomDeviceView } from './views/classroom-device-page.js';
import { errorPage } from '../src/web/error-page.js';
import { pagesAtIssuerHost } from '../src/web/issuer-host.js';
import { pageErrors, SCHOOL_PAGES } from '../src/web/page-errors.js';

export interface ClassroomDeviceDeps {
  host: ProviderHost;
  store: Store;
  clients: AvailabilitySources['clients'];
  devices: DeviceCookies;
  trustedDevices: TrustedDevices;
  cookieKeys: readonly string[];
  issuer: string;
}

/** Who may mark classroom devices (SPEC: user `type`, e.g. student, employee, admin). */
const STAFF_TYPES = new Set(['employee', 'admin']);

/**
 * Whether this signed-in user may mark classroom devices: staff of a real school, whom Lanyard's own client
 * may sign in (src/clients/app-availability.ts). So never a sandbox school's test user, whose credentials
 * every developer sees, whichever app (a development app's, say) their session came from
 * (docs/security.md → Sign-in protection).
 */
async function mayMarkDevices(d: ClassroomDeviceDeps, user: User | undefined): Promise<boolean> {
  return !!user && STAFF_TYPES.has(user.type) && await mayClientSignIn({ clients: d.clients, store: d.store }, LANYARD_CLIENT_ID, user);
}
const PATH = ROUTES.classroomDevice;
/** The page's forms (mark, revoke, sign out): their token is bound to the staff member's session (src/provider/session-form.ts). */
const FORM = 'classroom-form';

/** The page's view, and the session it was built for (what its forms' token is bound to). */
type Viewed = ClassroomDeviceView & { session?: SignedIn | undefined };

type Body = { csrf?: unknown; name?: unknown; classId?: unknown };

/**
 * The class chosen in the form: '' (or nothing) is no class; otherwise one of the classes this member of staff
 * may give the device (src/accounts/device-classes.ts), else `false` (refused).
 */
function chosenClass(body: Body, allowed: readonly RosterClass[]): string | undefined | false {
  const id = typeof body.classId === 'string' ? body.classId : '';
  if (id === '') return undefined;
  return allowed.some((c) => c.id === id) ? id : false;
}

/**
 * /classroom-device: a member of staff signed in on a device marks it as a trusted classroom device of their
 * organisation (src/accounts/trusted-devices.ts). Signing in goes through the provider with Lanyard's
 * built-in client, so it is the same sign-in, with the same protection, as any app's.
 */
export function classroomDeviceRoutes(app: FastifyInstance, d: ClassroomDeviceDeps): void {
  const csrfOk = (v: Viewed, body: Body) => !!v.session && sessionFormTokenValid(d.cookieKeys, FORM, v.session, body.csrf);

  async function view(req: FastifyRequest, reply: FastifyReply, extra: Partial<ClassroomDeviceView> = {}): Promise<Viewed> {
    const session = await signedInSession(d.host, d.store, req, reply);
    const user = session?.user;
    const organisation = user && await d.store.findOrganisation(user.organisationId);
    const device = await d.devices.trusted(req);
    const currentOrg = device && (device.organisationId === organisation?.id ? organisation : await d.store.findOrganisation(device.organisationId));
    const currentClass = device?.classId ? await d.store.findClass(device.organisationId, device.classId) : undefined;
    const staff = await mayMarkDevices(d, user);
    return {
      user,
      organisation,
      staff,
      testUser: organisation?.slug === SANDBOX_SLUG,
      current: device && { device, organisationName: currentOrg?.name ?? 'another school', classTitle: currentClass?.id === device.classId ? currentClass?.title : undefined },
      classes: staff && user ? await classesForDevice(d.store, user, user.organisationId) : [],
      ...(session ? { csrf: sessionFormToken(d.cookieKeys, FORM, session), session } : {}),
      ...extra,
    };
  }

  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 4 * 1024 });
    pageErrors(scope, SCHOOL_PAGES);
    pagesAtIssuerHost(scope, d.issuer);

    scope.get<{ Querystring: { code?: string } }>(PATH, async (req, reply) => {
      if (typeof req.query.code === 'string') {
        // Back from signing in: only the session matters here, so our own code is spent at once, unused.
        await spendOwnCode(d.host, req.query.code, `${d.issuer}${PATH}`);
        return reply.header('Cache-Control', 'no-store').redirect(PATH, 303);
      }
      return sendHtml(reply, 200, classroomDevicePage(await view(req, reply)));
    });

    scope.get<{ Querystring: { switch?: string } }>(`${PATH}/sign-in`, async (req, reply) => {
      const { issuer } = d;
      const params = new URLSearchParams({
        client_id: LANYARD_CLIENT_ID,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: `${issuer}${PATH}`,
        state: randomBytes(12).toString('base64url'),
        ...(req.query.switch ? { prompt: 'login' } : {}),
      });
      return reply.header('Cache-Control', 'no-store').redirect(`${ROUTES.authorization}?${params}`, 303);
    });

    scope.post<{ Body: Body }>(PATH, async (req, reply) => {
      const v = await view(req, reply);
      const refused = refuse(v, req.body ?? {}, csrfOk, reply);
      if (refused) return refused;
      const name = typeof req.body?.name === 'string' ? req.body.name.trim() : '';
      if (name.length < 1 || name.length > 60) {
        return sendHtml(reply, 400, classroomDevicePage({ ...v, name: name.slice(0, 60), error: 'Give the device a name of 1 to 60 characters.' }));
      }
      const classId = chosenClass(req.body ?? {}, v.classes);
      if (classId === false) {
        return sendHtml(reply, 400, classroomDevicePage({ ...v, name, error: 'Choose one of your classes, or no class.' }));
      }
      const user = v.user!;
      // Marking again (or for another school) replaces the device's record: no active record is left orphaned.
      if (v.current) await d.trustedDevices.revoke(v.current.device.organisationId, { id: v.current.device.id });
      let device: TrustedDevice;
      try {
        device = await d.trustedDevices.add(user.organisationId, name, { id: user.id, username: user.username }, classId);
      } catch (err) {
        if (!(err instanceof TooManyDevicesError)) throw err;
        return sendHtml(reply, 409, classroomDevicePage({ ...v, name, error: err.message }));
      }
      d.devices.setTrusted(req, reply, device);
      req.log.info({ event: 'device.trusted', organisation: v.organisation?.slug, deviceId: device.id, accountId: user.id, classId }, 'classroom device marked');
      // A shared device: the member of staff's sign-in must not stay behind for the next pupil.
      await endBrowserSession(d.host, req, reply);
      return reply.header('Cache-Control', 'no-store').redirect(PATH, 303);
    });

    // Which class's name tiles the device shows (docs/childrens-sign-in.md → Class sign-in), changed afterwards.
    scope.post<{ Body: Body }>(`${PATH}/class`, async (req, reply) => {
      const v = await view(req, reply);
      const refused = refuse(v, req.body ?? {}, csrfOk, reply);
      if (refused) return refused;
      const device = v.current?.device;
      if (!device || device.organisationId !== v.user!.organisationId) {
        return sendHtml(reply, 409, classroomDevicePage({ ...v, error: 'This is not a classroom device of your school: mark it first.' }));
      }
      const classId = chosenClass(req.body ?? {}, v.classes);
      if (classId === false) return sendHtml(reply, 400, classroomDevicePage({ ...v, error: 'Choose one of your classes, or no class.' }));
      await d.trustedDevices.setClass(device.organisationId, device.id, classId);
      req.log.info({ event: 'device.class_set', organisation: v.organisation?.slug, deviceId: device.id, accountId: v.user!.id, classId }, 'classroom device class set');
      await endBrowserSession(d.host, req, reply);
      return reply.header('Cache-Control', 'no-store').redirect(PATH, 303);
    });

    scope.post<{ Body: Body }>(`${PATH}/revoke`, async (req, reply) => {
      const v = await view(req, reply);
      const refused = refuse(v, req.body ?? {}, csrfOk, reply);
      if (refused) return refused;
      if (v.current && v.current.device.organisationId === v.user!.organisationId) {
        await d.trustedDevices.revoke(v.current.device.organisationId, { id: v.current.device.id });
        req.log.info({ event: 'device.revoked', organisation: v.organisation?.slug, deviceId: v.current.device.id, accountId: v.user!.id }, 'classroom device revoked');
      }
      d.devices.clearTrusted(req, reply);
      await endBrowserSession(d.host, req, reply);
      return reply.header('Cache-Control', 'no-store').redirect(PATH, 303);
    });

    // Whoever signed in here can leave without changing anything: a shared device must not keep their sign-in.
    scope.post<{ Body: Body }>(`${PATH}/sign-out`, async (req, reply) => {
      const v = await view(req, reply);
      if (v.user && !csrfOk(v, req.body ?? {})) return refuse(v, req.body ?? {}, csrfOk, reply, { staffOnly: false });
      await endBrowserSession(d.host, req, reply);
      return reply.header('Cache-Control', 'no-store').redirect(PATH, 303);
    });
  });
}

/** Only a member of staff (unless `staffOnly` is false), signed in here, with this page's form, may change the device. */
function refuse(v: Viewed, body: Body, csrfOk: (v: Viewed, b: Body) => boolean, reply: FastifyReply, o = { staffOnly: true }) {
  if (!v.user || (o.staffOnly && !v.staff)) {
    return sendHtml(reply, 403, errorPage('Staff only', 'Sign in as a member of staff to change classroom devices.', 'access_denied'));
  }
  if (!csrfOk(v, body)) {
    return sendHtml(reply, 403, errorPage('Cannot do that', 'This form has expired. Open the page again and retry.', 'invalid_form'));
  }
  return undefined;
}
