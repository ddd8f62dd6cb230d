import { offersHelpCodes } from '../../src/accounts/help-codes.js';
import { html, type Raw } from '../../src/web/html.js';
import { cancelForm, isolated, type StepView, type TappedPupil } from './step-frame.js';

/** The screens of a tapped pupil: their pictures, their badge, their help code (interactions/class-tiles.ts). */
export type PupilWay = 'emoji' | 'badge' | 'help_code';

/**
 * The ways the school offers this pupil, in the order a tap opens them (emoji keyboard first where the school
 * uses pictures, then the badge camera, then the help code, which every school offers).
 */
export function pupilWays(v: Pick<StepView, 'organisation'>): PupilWay[] {
  const { methods } = v.organisation.login;
  return [
    ...(methods.includes('emoji') ? ['emoji' as const] : []),
    ...(methods.includes('badge') ? ['badge' as const] : []),
    ...(offersHelpCodes(v.organisation) ? ['help_code' as const] : []),
  ];
}

/** Where each way is for the tapped pupil (the tile itself opens the first: interactions/class-tiles.ts). */
export function pupilWayUrl(v: Pick<StepView, 'uid' | 'organisation'> & { pupil: TappedPupil }, way: PupilWay): string {
  const path = { emoji: '', badge: '/badge', help_code: '/help-code' }[way];
  return `/interaction/${v.uid}/pupil/${encodeURIComponent(v.pupil.id)}${path}?org=${encodeURIComponent(v.organisation.slug)}`;
}

const WAY_WORDS = { emoji: 'classSignIn.usePictures', badge: 'classSignIn.badge', help_code: 'signIn.haveHelpCode' } as const;

/**
 * Below a tapped pupil's screen (docs/childrens-sign-in.md → Class sign-in): back to the names ("Not Ava?"),
 * the pupil's other ways of signing in, any way (the ordinary chooser), another school, and cancel.
 */
export function pupilFooter(v: StepView & { pupil: TappedPupil }, current: PupilWay): Raw {
  const { t } = v;
  const org = encodeURIComponent(v.organisation.slug);
  return html`
<nav class="step-links" aria-label="${t.t('signIn.otherOptions')}">
  <a href="/interaction/${v.uid}?org=${org}">${t.t('classSignIn.notYou', { name: isolated(v.pupil.name) })}</a>
  ${pupilWays(v).filter((way) => way !== current).map((way) => html`<a href="${pupilWayUrl(v, way)}">${t.t(WAY_WORDS[way])}</a>`)}
  <a href="/interaction/${v.uid}?org=${org}&amp;way=any">${t.t('classSignIn.otherWay')}</a>
  ${v.canChangeOrganisation ? html`<a href="/interaction/${v.uid}?change=1">${t.t('signIn.notThisSchool', { school: v.organisation.name })}</a>` : ''}
</nav>
${cancelForm(v, current)}`;
}
