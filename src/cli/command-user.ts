import { userInfo } from 'node:os';

/** Who runs a command, for the records it leaves (a roster import's, the audit trail's): `cli:<os user>`. */
export function commandUser(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli:unknown'; // a container without a passwd entry for its uid
  }
}
