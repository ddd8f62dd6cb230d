import { interactionPolicy } from 'oidc-provider';
import type { Directory } from '../../adapters/store.js';

interface PolicyContext {
  oidc: { params: Record<string, unknown>; session?: { accountId?: string } };
}

/**
 * oidc-provider's default prompts, plus one login check: when the request names an organisation, a
 * session signed in to another organisation does not satisfy it (the user logs in again, for that one).
 * There is no consent screen: apps are configured by ops and trusted (see grant-loader.ts).
 */
export function loginPolicy(directory: Directory) {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(new interactionPolicy.Check(
    'organisation_mismatch',
    'the session belongs to another organisation',
    async (ctx: unknown) => {
      const { oidc } = ctx as PolicyContext;
      const wanted = oidc.params.organisation as string | undefined;
      const accountId = oidc.session?.accountId;
      if (!wanted || !accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const [org, user] = await Promise.all([directory.findOrganisation(wanted), directory.findUser(accountId)]);
      return org && user?.organisationId === org.id
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    },
  ));
  return policy;
}
