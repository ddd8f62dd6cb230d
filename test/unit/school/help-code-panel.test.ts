import t from 'tap';
import type { User } from '../../../adapters/store.js';
import { helpCodePanelView, helpCodePath, helpCodesPath } from '../../../src/school/help-code-panel.js';
import { untilText } from '../../../src/school/views/help-code-time.js';

const pupil: User = { id: 'u100000000000007', organisationId: 'o1', username: 'ada.j', givenName: 'Ada', familyName: 'Jones', type: 'student' };
const now = new Date('2027-03-10T09:00:00.000Z');
const view = (extra: Partial<Parameters<typeof helpCodePanelView>[0]> = {}) => helpCodePanelView({
  slug: 'north', pupil, csrf: 'tok', now, timeZone: 'Europe/London', back: '/school/north/people/u100000000000007', ...extra,
}).value;

t.test('the panel gives a code by a form that posts, with its token and the page to come back to', async (t) => {
  const html = view();
  t.match(html, '<h2 id="help-code-heading">Help code</h2>');
  t.match(html, '<form method="post" action="/school/north/people/u100000000000007/help-code"');
  t.match(html, '<input type="hidden" name="csrf" value="tok">');
  t.match(html, '<input type="hidden" name="next" value="/school/north/people/u100000000000007">');
  t.match(html, 'Give a help code');
  t.notMatch(html, 'Cancel', 'nothing to cancel');
});

t.test('a live code: who gave it, until when, and Cancel; a new one replaces it', async (t) => {
  const html = view({ live: { expiresAt: new Date('2027-03-10T16:30:00.000Z'), issuedBy: 'Tess Teacher' } });
  t.match(html, 'Ada Jones has a help code from Tess Teacher, until 16:30 today.');
  t.match(html, 'Give a new help code');
  t.match(html, 'action="/school/north/people/u100000000000007/help-code/cancel"');
});

t.test('no form for someone who cannot be given a code', async (t) => {
  t.match(view({ refusal: 'may_not_sign_in' }), 'Ada Jones cannot sign in at the moment');
  t.notMatch(view({ refusal: 'may_not_sign_in' }), '<form');
  t.match(view({ refusal: 'other_school' }), 'signs in at their own school');
  t.equal(view({ refusal: 'staff' }), '', 'no panel at all for a member of staff: codes are for pupils');
  t.equal(view({ refusal: 'oneself' }), '', 'nor for oneself');
  t.match(view({ pupil: { ...pupil, givenName: '<b>' } }), '&lt;b&gt;', 'names are escaped');
});

t.test('addresses, and until when in words on the school\'s clock', async (t) => {
  t.equal(helpCodePath('north', 'u1', '/cancel'), '/school/north/people/u1/help-code/cancel');
  t.equal(helpCodesPath('north'), '/school/north/help-codes');
  t.equal(helpCodesPath('north', 'c 1'), '/school/north/help-codes?class=c%201');
  t.equal(untilText(new Date('2027-06-15T15:30:00.000Z'), new Date('2027-06-15T09:00:00.000Z'), 'Europe/London'), '16:30 today', 'BST');
  t.equal(untilText(new Date('2027-06-16T00:30:00.000Z'), new Date('2027-06-15T17:00:00.000Z'), 'Europe/London'), '01:30 tomorrow');
  t.equal(untilText(new Date('2027-06-16T00:30:00.000Z'), new Date('2027-06-15T17:00:00.000Z'), 'UTC'), '00:30 tomorrow');
  t.equal(untilText(new Date('2027-06-18T10:00:00.000Z'), new Date('2027-06-15T17:00:00.000Z'), 'UTC'), 'Fri 18 Jun, 10:00', 'further off: the day');
});
