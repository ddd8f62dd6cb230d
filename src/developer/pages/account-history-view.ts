import type { DeveloperEvent } from '../../../adapters/store.js';
import { html, type Raw } from '../../web/html.js';
import { shownActorName } from '../actor.js';
import { ACTION_TEXT, M } from './account-messages.js';
import { historyList } from './history-list.js';

/** How a change to the account reads after its name: each value as written then; never a secret. */
function details(e: DeveloperEvent): Raw | string {
  const s = (k: string) => (typeof e.detail[k] === 'string' ? e.detail[k] : undefined);
  switch (e.action) {
    case 'account.created':
      return s('via') === 'invitation' ? M.historyInvitedBy(shownActorName(s('invitedBy') ?? '')) : M.historySignedUp;
    case 'account.renamed':
      return M.historyRenamed(s('from') ?? '', s('to') ?? '');
    case 'signed_in':
      return s('secondFactor') === 'totp' ? M.historyWithTotp : s('secondFactor') === 'recovery code' ? M.historyWithRecoveryCode : M.historyPasswordOnly;
    case 'recovery_code.used':
      return M.historyCodesLeft(Number(s('remaining') ?? 0));
    case 'token.created': case 'token.revoked':
      return html`“${s('label')}” (ends with <code>…${s('hint')}</code>)`;
    default:
      return '';
  }
}

/** The account's recorded changes, newest first, as an app's read (history-list.ts). */
export const accountHistory = (events: DeveloperEvent[]): Raw =>
  historyList('Changes to this account, newest first', events, ACTION_TEXT, details, M.noHistory);
