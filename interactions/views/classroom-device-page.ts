import type { Organisation, RosterClass, User } from '../../adapters/store.js';
import type { TrustedDevice } from '../../src/accounts/trusted-devices.js';
import { ROUTES } from '../../src/routes.js';
import { csrfField } from '../../src/web/components.js';
import { html } from '../../src/web/html.js';
import { layout } from '../../src/web/layout.js';
import { errorMessage, invalidIf } from './step-frame.js';

export interface ClassroomDeviceView {
  /** Who is signed in here, and their organisation (undefined: nobody). */
  user?: User | undefined;
  organisation?: Organisation | undefined;
  /** Whether the user may mark classroom devices (staff of a real school). */
  staff: boolean;
  /** Whether the user is a test user of the sandbox school (never trusted with a device). */
  testUser?: boolean;
  /** The trusted device this browser is, and its organisation's name. */
  current?: { device: TrustedDevice; organisationName: string; classTitle?: string | undefined } | undefined;
  /** The classes this member of staff may give the device (their classes; a school admin's, all the school's). */
  classes: RosterClass[];
  csrf?: string;
  name?: string;
  error?: string;
}

const PATH = ROUTES.classroomDevice;

/** /classroom-device: a member of staff marks (or stops trusting) this browser as a classroom device. */
export function classroomDevicePage(v: ClassroomDeviceView): string {
  return layout('Classroom device', html`
<h1>Classroom device</h1>
${v.current
    ? html`<p class="notice" role="status">This is a classroom device of <strong>${v.current.organisationName}</strong>:
  “${v.current.device.name}”.
  ${v.current.classTitle
    ? html`Its sign-in screen shows the names of the class <strong>${v.current.classTitle}</strong>.`
    : 'It is set to no class: its sign-in screen shows no names.'}</p>`
    : html`<p>A classroom device is a shared tablet or computer that a member of staff has marked for their school.
  Pupils signing in on it are never slowed down by wrong guesses made anywhere else.</p>`}
${body(v)}
`);
}

function body(v: ClassroomDeviceView) {
  if (!v.user) {
    return html`<p>${v.current ? 'To stop trusting this device' : 'To mark this device'}, sign in as a member of staff first.
  You are signed out again as soon as you have done it, so no pupil can use your sign-in on this device.</p>
<form method="get" action="${PATH}/sign-in"><button type="submit">Sign in as a member of staff</button></form>`;
  }
  const who = html`<p class="muted">Signed in as ${v.user.givenName} ${v.user.familyName}${v.organisation ? html`, ${v.organisation.name}` : ''}.</p>`;
  const signOut = html`<form method="post" action="${PATH}/sign-out" class="secondary">
  ${csrfField(v.csrf ?? '')}
  <button type="submit" class="link">${v.staff ? 'Cancel and sign out' : 'Sign out'}</button>
</form>`;
  if (!v.staff) {
    return html`${who}
<p>${v.testUser
    ? 'The sandbox school’s test users cannot mark classroom devices: only staff of a real school can.'
    : 'Only staff can mark classroom devices.'}</p>
<form method="get" action="${PATH}/sign-in"><input type="hidden" name="switch" value="1">
<button type="submit">Sign in as a member of staff</button></form>
${signOut}`;
  }
  const mine = v.current && v.current.device.organisationId === v.user.organisationId;
  return html`${who}
${mine ? html`${errorMessage(v.error)}${v.classes.length ? html`<form method="post" action="${PATH}/class">
  ${csrfField(v.csrf ?? '')}
  ${classSelect(v.classes, v.current?.device.classId)}
  <button type="submit">Save the class</button>
</form>` : ''}
<form method="post" action="${PATH}/revoke">
  ${csrfField(v.csrf ?? '')}
  <button type="submit">Stop trusting this device</button>
</form>` : html`${errorMessage(v.error)}
<form method="post" action="${PATH}" novalidate>
  ${csrfField(v.csrf ?? '')}
  <label for="name">A name for this device</label>
  <input id="name" name="name" type="text" maxlength="60" value="${v.name ?? ''}" placeholder="Year 2 tablet 4" required ${invalidIf(v.error)}>
  ${v.classes.length ? classSelect(v.classes, undefined) : ''}
  <button type="submit">Mark as a classroom device of ${v.organisation?.name ?? 'my school'}</button>
</form>`}
${signOut}
<p class="muted note">Your school’s IT team can see all of the school’s classroom devices and stop trusting any of them.</p>`;
}

/**
 * Which class uses the device: its sign-in screen shows that class's name tiles (docs/childrens-sign-in.md →
 * Class sign-in); "No class" shows none.
 */
function classSelect(classes: readonly RosterClass[], current: string | undefined) {
  return html`<label for="class-id">Which class uses this device</label>
  <p class="hint" id="class-hint">Its sign-in screen shows the first names of the class’s pupils to tap.</p>
  <select id="class-id" name="classId" aria-describedby="class-hint">
    <option value=""${current ? '' : ' selected'}>No class (no names shown)</option>${classes.map((c) => html`
    <option value="${c.id}"${c.id === current ? ' selected' : ''}>${c.title}</option>`)}
  </select>`;
}
