/**
 * Where a Redis store keeps what (P is the store's prefix, LANYARD_REDIS_PREFIX). Keys that one Lua script
 * touches together share a Redis Cluster hash tag `{…}`, so every script stays valid on Cluster; what is
 * not atomic across tags (a grant's records, the sweep) is done with separate commands.
 *
 *   {directory}: organisations, users, credentials and badges (upserts check what they refer to)
 *     P:{directory}:orgs                    hash id → {id, slug, name}
 *     P:{directory}:org-logins              hash id → LoginSettings JSON (none: the defaults)
 *     P:{directory}:org-slugs               hash lower(slug) → id
 *     P:{directory}:users                   hash id → User JSON (with suspendedAt, sessionsValidAfter)
 *     P:{directory}:retired-users           hash id → retiredAt: ids of deleted users, never given out again
 *     P:{directory}:usernames:<orgId>       hash lower(username) → id
 *     P:{directory}:credentials             hash <userId>:<kind> → hash
 *     P:{directory}:badges                  hash codeHash → {userId, organisationId, createdAt}
 *     P:{directory}:badges-of-user:<userId> set of codeHash   } members are checked against `badges`
 *     P:{directory}:badges-of-org:<orgId>   set of codeHash   } before use: a stale one is harmless
 *   {directory} too: the roster (adapters/redis/roster.ts), written with the users in one MULTI/EXEC
 *     P:{directory}:source-ids:<orgId>      hash sourceId → user id (the roster's people, unique per school)
 *     P:{directory}:leavers                 hash user id → rosterHoldSince, of users held as `left`
 *     P:{directory}:sign-ins                hash user id → the last successful sign-in (ISO 8601)
 *     P:{directory}:memberships             hash user id → JSON [{organisationId, role}]: other schools
 *     P:{directory}:members-in:<orgId>      set of user ids with a membership there (checked against memberships)
 *     P:{directory}:academic-sessions       hash id → AcademicSession JSON
 *     P:{directory}:academic-sessions-of:<orgId> set of ids
 *     P:{directory}:classes                 hash id → RosterClass JSON
 *     P:{directory}:classes-of:<orgId>      set of class ids
 *     P:{directory}:class-sourced-ids:<orgId> hash sourcedId → class id
 *     P:{directory}:enrolments:<classId>    hash user id → {role, primary, sourcedId, beginDate, endDate}
 *     P:{directory}:enrolments-of-user:<userId> set of class ids (checked against the class's enrolments)
 *     P:{directory}:roster-imports          hash id → RosterImportRun JSON
 *     P:{directory}:roster-imports-by-time  sorted set of ids, scored by `at` (epoch milliseconds)
 *   {directory} too: the school console's records of people (a user's deletion removes them in its script)
 *     P:{directory}:help-code:<userId>      hash code (HelpCode JSON without failures), hash, expires (epoch
 *                                           milliseconds), failures (expiring)
 *     P:{directory}:help-codes-of:<orgId>   set of user ids with a code there (checked against help-code:*)
 *     P:{directory}:class-link:<id>         ClassLink JSON (expiring a day after the link ends)
 *     P:{directory}:class-link-code:<hash>  the id of the link with this code hash (expiring with the link)
 *     P:{directory}:class-links-of:<orgId>:<classId> sorted set of link ids, scored by createdAt (epoch ms;
 *                                           members whose link is gone are pruned when listed)
 *     P:{directory}:class-links-by-end      sorted set of link ids, scored by when each ended or will end
 *                                           (expiry, or revocation): the sweep's purge and the export
 *     P:{directory}:staff-grants:<orgId>    hash "<userId> <role>" → StaffGrant JSON   } the same grant, written
 *     P:{directory}:staff-grants-of:<userId> hash "<orgId> <role>" → StaffGrant JSON  } and removed together
 *     P:{directory}:staff-factors           hash user id → StaffSecondFactor JSON without the codes and step
 *     P:{directory}:staff-recovery:<userId> list of the unused recovery-code hashes (LREM spends one)
 *     P:{directory}:staff-steps             hash user id → the last TOTP step accepted
 *     P:{directory}:staff-tokens            hash id → StaffApiToken JSON
 *     P:{directory}:staff-tokens-of:<userId> set of token ids (members are checked against `staff-tokens`)
 *   {clients}
 *     P:{clients}:clients                   hash clientId → StoredClient JSON without createdAt
 *     P:{clients}:created                   hash clientId → createdAt (kept when the client is replaced)
 *     P:{clients}:secrets:<clientId>        hash secretId → StoredClientSecret JSON
 *     P:{clients}:logos:<clientId>          hash sha256 → StoredLogo JSON (bytes in base64)
 *     P:{clients}:connections:<orgId>       hash clientId → AppConnection JSON   } the same connection, written
 *     P:{clients}:connected:<clientId>      hash orgId → 1                       } and removed together
 *     P:{clients}:app-requests:<orgId>      hash clientId → AppRequest JSON      } the same request, written
 *     P:{clients}:app-requested:<clientId>  hash orgId → 1                       } and removed together
 *   {developers}: the developer area (one tag: an account and its email, a membership both ways, a token and
 *   its developer's set are each written by one script)
 *     P:{developers}:accounts               hash id → DeveloperAccount JSON without email
 *     P:{developers}:email-of               hash id → email (lower-cased)
 *     P:{developers}:emails                 hash email → id: the unique index, settled inside the create script
 *     P:{developers}:team:<clientId>        hash developerId → TeamMember JSON   } the same membership,
 *     P:{developers}:memberships:<devId>    hash clientId → TeamMember JSON      } written and removed together
 *     P:{developers}:tokens                 hash id → DeveloperApiToken JSON
 *     P:{developers}:tokens-of:<devId>      set of token ids (members are checked against `tokens`)
 *     P:{developers}:events:<subject>       list of DeveloperEvent JSON, newest first
 *   {audit}: the audit trail (adapters/redis/audit.ts; its scripts reach the keys below by the tag's prefix)
 *     P:{audit}:events                      hash id → AuditEvent JSON
 *     P:{audit}:by-time                     sorted set of ids, scored by `at` (epoch ms): every school's, for purge and export
 *     P:{audit}:org:<orgId>                 sorted set of the school's ids, scored by `at`
 *     P:{audit}:user:<orgId>:<userId>       sorted set of the ids whose actor or subject the user is
 *     P:{audit}:client:<orgId>:<clientId>   sorted set of the ids of the app's events
 *     P:{audit}:aggregates:<orgId>          hash aggregate key → the id of its row
 *     P:{audit}:usage:<orgId>:<day>         hash of the day's use (adapters/store/audit-usage.ts fields) → count
 *   {keys}
 *     P:{keys}:keys                         hash kid → StoredKey JSON
 *     P:{keys}:active                       hash month → kid of the month's unrevoked key
 *   {oidc:<model>}: one model's records and their indexes
 *     P:{oidc:M}:rec:<id>                   hash payload, expiresAt, uid, userCode, grantId, accountId, consumed
 *                                           (expiring)
 *     P:{oidc:M}:uids                       hash uid → id        } entries of records Redis expired itself
 *     P:{oidc:M}:user-codes                 hash userCode → id   } are checked on read, pruned by sweep
 *   {grant:<grantId>}
 *     P:{grant:G}                           set of JSON [model, id]; expires no sooner than its longest member,
 *                                           members of records that are gone are pruned by the sweep
 *   {account:<accountId>}
 *     P:{account:A}                         the same for every record whose payload names the account
 *                                           (sessions, interactions, grants, codes, tokens): revokeByAccountId
 *   one key per operation (no tag needed)
 *     P:settings                            hash name → value (`config-revision`: the clients' revision)
 *     P:running-revisions                   hash instance → {version, hash, expiresAt}: the revision each
 *                                           running instance runs (expired ones removed at each report)
 *     P:counter:<key>                       hash count, lastAt, expiresAt (expiring)
 *     P:lock:<key>                          hash token, expiresAt (expiring)
 *     P:probe:<instance>:<n>                readiness probe (expiring)
 *
 * Every `expiresAt` is epoch milliseconds on the injected clock and decides; Redis's own expiry (PX) only
 * frees memory.
 */

export type KeyLayout = ReturnType<typeof keyLayout>;

/** What a key scanned under the prefix is, for the sweep and the export. */
export type ParsedKey =
  | { kind: 'record'; model: string; id: string }
  | { kind: 'index'; model: string; field: 'uid' | 'userCode' }
  | { kind: 'grant'; grantId: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'counter'; name: string }
  | { kind: 'lock'; name: string };

export function keyLayout(prefix: string) {
  const p = `${prefix}:`;
  const dir = `${p}{directory}:`;
  const devs = `${p}{developers}:`;
  const oidc = (model: string) => `${p}{oidc:${model}}:`;
  return {
    prefix,
    directory: {
      orgs: `${dir}orgs`,
      orgLogins: `${dir}org-logins`,
      orgSlugs: `${dir}org-slugs`,
      users: `${dir}users`,
      retiredUsers: `${dir}retired-users`,
      usernames: (organisationId: string) => `${dir}usernames:${organisationId}`,
      credentials: `${dir}credentials`,
      badges: `${dir}badges`,
      badgesOfUser: (userId: string) => `${dir}badges-of-user:${userId}`,
      badgesOfOrg: (organisationId: string) => `${dir}badges-of-org:${organisationId}`,
    },
    roster: {
      sourceIds: (organisationId: string) => `${dir}source-ids:${organisationId}`,
      leavers: `${dir}leavers`,
      signIns: `${dir}sign-ins`,
      memberships: `${dir}memberships`,
      membersIn: (organisationId: string) => `${dir}members-in:${organisationId}`,
      sessions: `${dir}academic-sessions`,
      sessionsOf: (organisationId: string) => `${dir}academic-sessions-of:${organisationId}`,
      classes: `${dir}classes`,
      classesOf: (organisationId: string) => `${dir}classes-of:${organisationId}`,
      classSourcedIds: (organisationId: string) => `${dir}class-sourced-ids:${organisationId}`,
      /** A class's enrolments; `enrolmentsPrefix` + class id, for a script that reaches a user's classes. */
      enrolments: (classId: string) => `${dir}enrolments:${classId}`,
      enrolmentsPrefix: `${dir}enrolments:`,
      enrolmentsOfUser: (userId: string) => `${dir}enrolments-of-user:${userId}`,
      imports: `${dir}roster-imports`,
      importsByTime: `${dir}roster-imports-by-time`,
    },
    helpCodes: {
      /** A pupil's code; `codePrefix` + user id, for a script that reaches a school's codes. */
      code: (userId: string) => `${dir}help-code:${userId}`,
      codePrefix: `${dir}help-code:`,
      of: (organisationId: string) => `${dir}help-codes-of:${organisationId}`,
    },
    classLinks: {
      /** A link; `linkPrefix` + id, for a script that reaches links by id. */
      link: (id: string) => `${dir}class-link:${id}`,
      linkPrefix: `${dir}class-link:`,
      code: (codeHash: string) => `${dir}class-link-code:${codeHash}`,
      codePrefix: `${dir}class-link-code:`,
      ofClass: (organisationId: string, classId: string) => `${dir}class-links-of:${organisationId}:${classId}`,
      ofClassPrefix: `${dir}class-links-of:`,
      byEnd: `${dir}class-links-by-end`,
    },
    staff: {
      /** A school's grants; `grantsPrefix` + organisation id, for a script that reaches a person's schools. */
      grants: (organisationId: string) => `${dir}staff-grants:${organisationId}`,
      grantsPrefix: `${dir}staff-grants:`,
      grantsOf: (userId: string) => `${dir}staff-grants-of:${userId}`,
      factors: `${dir}staff-factors`,
      recovery: (userId: string) => `${dir}staff-recovery:${userId}`,
      steps: `${dir}staff-steps`,
      tokens: `${dir}staff-tokens`,
      tokensOf: (userId: string) => `${dir}staff-tokens-of:${userId}`,
    },
    clients: {
      clients: `${p}{clients}:clients`,
      created: `${p}{clients}:created`,
      secrets: (clientId: string) => `${p}{clients}:secrets:${clientId}`,
      logos: (clientId: string) => `${p}{clients}:logos:${clientId}`,
      connections: (organisationId: string) => `${p}{clients}:connections:${organisationId}`,
      connected: (clientId: string) => `${p}{clients}:connected:${clientId}`,
      appRequests: (organisationId: string) => `${p}{clients}:app-requests:${organisationId}`,
      appRequested: (clientId: string) => `${p}{clients}:app-requested:${clientId}`,
    },
    developers: {
      accounts: `${devs}accounts`,
      emailOf: `${devs}email-of`,
      emails: `${devs}emails`,
      team: (clientId: string) => `${devs}team:${clientId}`,
      memberships: (developerId: string) => `${devs}memberships:${developerId}`,
      tokens: `${devs}tokens`,
      tokensOf: (developerId: string) => `${devs}tokens-of:${developerId}`,
      events: (subject: string) => `${devs}events:${subject}`,
      /** SCAN patterns for the export. */
      match: { teams: `${devs}team:*`, events: `${devs}events:*` },
      /** The client of a team key (from a SCAN by `match`). */
      teamOf: (key: string) => key.slice(`${devs}team:`.length),
    },
    audit: {
      /** What the trail's scripts put before each key they reach (`org:<orgId>`, `usage:<orgId>:<day>`, …). */
      prefix: `${p}{audit}:`,
      events: `${p}{audit}:events`,
      byTime: `${p}{audit}:by-time`,
      organisation: (organisationId: string) => `${p}{audit}:org:${organisationId}`,
      user: (organisationId: string, userId: string) => `${p}{audit}:user:${organisationId}:${userId}`,
      client: (organisationId: string, clientId: string) => `${p}{audit}:client:${organisationId}:${clientId}`,
      usage: (organisationId: string, day: string) => `${p}{audit}:usage:${organisationId}:${day}`,
    },
    keys: { keys: `${p}{keys}:keys`, active: `${p}{keys}:active` },
    oidc: {
      record: (model: string, id: string) => `${oidc(model)}rec:${id}`,
      index: (model: string, field: 'uid' | 'userCode') => `${oidc(model)}${field === 'uid' ? 'uids' : 'user-codes'}`,
    },
    grant: (grantId: string) => `${p}{grant:${grantId}}`,
    account: (accountId: string) => `${p}{account:${accountId}}`,
    settings: `${p}settings`,
    runningRevisions: `${p}running-revisions`,
    counter: (name: string) => `${p}counter:${name}`,
    lock: (name: string) => `${p}lock:${name}`,
    probe: (instance: string, n: number) => `${p}probe:${instance}:${n}`,
    /** SCAN patterns (the prefix is letters, digits, '.', '_', '-': nothing to escape). */
    match: { all: `${p}*`, records: `${p}{oidc:*}:rec:*`, counters: `${p}counter:*` },
    parse(key: string): ParsedKey | undefined {
      if (!key.startsWith(p)) return undefined;
      const rest = key.slice(p.length);
      let m = /^\{oidc:(.*?)\}:rec:(.*)$/s.exec(rest);
      if (m) return { kind: 'record', model: m[1]!, id: m[2]! };
      m = /^\{oidc:(.*?)\}:(uids|user-codes)$/s.exec(rest);
      if (m) return { kind: 'index', model: m[1]!, field: m[2] === 'uids' ? 'uid' : 'userCode' };
      m = /^\{grant:(.*)\}$/s.exec(rest);
      if (m) return { kind: 'grant', grantId: m[1]! };
      m = /^\{account:(.*)\}$/s.exec(rest);
      if (m) return { kind: 'account', accountId: m[1]! };
      if (rest.startsWith('counter:')) return { kind: 'counter', name: rest.slice('counter:'.length) };
      if (rest.startsWith('lock:')) return { kind: 'lock', name: rest.slice('lock:'.length) };
      return undefined;
    },
  };
}
