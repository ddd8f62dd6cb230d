/**
 * Migration 9: when a developer account's address was shown to be its holder's (`email_verified_at`: the
 * account was made through an invitation link, which only the address's owner was given). NULL for an
 * account made by open sign-up, and for every account made before this: nothing recorded how they were
 * made in a way a statement can trust, so they count as unverified and accept team invitations through the
 * invitation's link (docs/developer-area.md → Teams).
 */
export const EMAIL_VERIFIED = `
ALTER TABLE developers ADD COLUMN email_verified_at TEXT;
`;
