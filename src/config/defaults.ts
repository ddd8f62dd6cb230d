/**
 * Every default of Lanyard's settings, in one place (docs/configuration.md lists them): what the environment
 * gives when a variable is unset, and what the configuration file gives when a field is left out. The file's
 * defaults are written into its JSON Schema as `default` keywords (src/config/schema.ts, config/schema.json),
 * so an editor shows them; the code reads them from here. A default that depends on another setting (the
 * issuer, the host, the number of workers) is a function here, beside the constants.
 */

/** `given`'s fields over `defaults`, a field left out or undefined taking its default. */
export function withDefaults<T extends object>(defaults: T, given: { [K in keyof T]?: T[K] | undefined } = {}): T {
  const merged = { ...defaults };
  for (const key of Object.keys(given) as (keyof T)[]) {
    if (given[key] !== undefined) merged[key] = given[key] as T[keyof T];
  }
  return merged;
}

/** Settings that are numbers: the defaults' values, typed as the numbers a file may put in their place. */
const numbers = <T extends Record<string, number>>(o: T): { readonly [K in keyof T]: number } => o;

/** The environment: deployment settings (docs/configuration.md → Environment variables). */
export const ENV_DEFAULTS = {
  /** PORT: where Lanyard listens. */
  port: 3000,
  /** LANYARD_STORE: a SQLite file under the working directory. */
  storeUrl: 'sqlite:./data/lanyard.db',
  /** LANYARD_REDIS_PREFIX: the namespace of Lanyard's keys in Redis, so deployments can share one server. */
  redisPrefix: 'lanyard',
  /** LANYARD_LOG_LEVEL: a pino level. */
  logLevel: 'info',
  /** LANYARD_TRUST_PROXY: no proxy is believed (X-Forwarded-* ignored). */
  trustProxy: 0,
  /** LANYARD_METRICS_HOST: loopback, so a separate metrics port is not exposed to the network by accident. */
  metricsHost: '127.0.0.1',
  /** LANYARD_DEMO_APP: the Demo App runs beside the demo configuration. */
  demoApp: 'on',
  /** LANYARD_STORE_INIT: a store with nothing in it is started anew at the first start (docs/storage.md → The store's identity). */
  storeInit: 'auto',
} as const;

/** LANYARD_ISSUER unset: this machine on PORT. */
export const defaultIssuer = (port: number): string => `http://localhost:${port}`;

/**
 * HOST unset: a development configuration's passwords are public (the demo's are in the README), so it
 * listens on this machine only; any other listens on every interface.
 */
export const defaultHost = (development: boolean): string => (development ? '127.0.0.1' : '0.0.0.0');

/** LANYARD_WORKERS unset: one process per core in production (`auto`), one otherwise. */
export const defaultWorkers = (production: boolean, cores: number): number => (production ? cores : 1);

/** The file's `service_documentation` left out: the guide Lanyard serves itself. */
export const defaultServiceDocumentation = (issuer: string): string => `${issuer}/docs`;

/** The file's `developer_signup`: only `lanyard developers invite EMAIL` creates developer accounts. */
export const DEVELOPER_SIGNUP_DEFAULT = 'invite';

/**
 * The file's `config_apps`: a client of the file that no organisation lists in `organisations[].apps` is
 * offered to every school, which connects it in the school console, rather than put on every school's
 * dashboards (`every_school`, Lanyard's behaviour before the console). docs/dashboard-and-app-launch.md.
 */
export const CONFIG_APPS_DEFAULT = 'offered';

/**
 * The file's `revision`: a file that never numbers its changes is revision 0, and then its contents alone
 * tell one revision from another (docs/operations.md → Rolling configuration changes).
 */
export const CONFIG_REVISION_DEFAULT = 0;

/** An organisation's `login_methods`: all three; and `badge_requires_emoji`: a badge alone signs in. */
export const LOGIN_METHODS_DEFAULT = ['emoji', 'badge', 'password'] as const;
export const BADGE_REQUIRES_EMOJI_DEFAULT = false;

/** An organisation's `class_sign_in.surname_initial`: class sign-in's name tiles show the first name alone, never a surname. */
export const SURNAME_INITIAL_DEFAULT = false;

/**
 * The file's `school_day` (docs/childrens-sign-in.md → Help codes): a help code works until the end of the school
 * day, and at most 8 hours; the day ends at `ends` (HH:MM, 24-hour) in `time_zone` (an IANA name).
 */
export const SCHOOL_DAY_DEFAULTS = {
  ends: '16:30',
  time_zone: 'UTC',
} as const;

/** A client's `response_types`: the authorization code flow only. */
export const RESPONSE_TYPES_DEFAULT = ['code'] as const;

/**
 * The file's `login_throttling` (docs/security.md → Sign-in protection has the arithmetic behind them). In
 * short, for one emoji password (84⁶ ≈ 3.5 × 10¹¹ possibilities): the unknown-device path of an account
 * allows at most `new_device_failure_cap` (100, NIST SP 800-63B §5.2.2) consecutive failures, then stops until
 * staff unlock it; a known device allows `free_attempts` failures, then waits doubling up to
 * `max_wait_seconds` (1 h): at most ~34 guesses a day, only from that very device.
 */
export const THROTTLING_DEFAULTS = numbers({
  /** Known and trusted devices: failures per account and device before waits start. */
  free_attempts: 5,
  /** Known and trusted devices: the first wait, doubling with each further failure … */
  base_wait_seconds: 30,
  /** … up to this. */
  max_wait_seconds: 60 * 60,
  /** Unknown devices: failures per account and source before waits start. */
  new_device_free_attempts: 3,
  new_device_base_wait_seconds: 5,
  /** Short on purpose: a pupil on a new device behind a busy school address never waits longer. */
  new_device_max_wait_seconds: 60,
  /** Consecutive unknown-device failures per account and method before that path stops (staff unlock it). */
  new_device_failure_cap: 100,
  /** Failures on any account from one device (a signed device cookie) per window. */
  device_failures: 10,
  /** Failures on any account from one IP address without a device cookie, per window. */
  ip_failures: 30,
  /** Unknown badge codes per source (device, or IP without one) per window. */
  badge_failures: 10,
  /** The window of the per-source budgets above. */
  window_seconds: 10 * 60,
  /** New device cookies one IP address is given per hour (each is a fresh source). */
  new_devices_per_ip_per_hour: 1000,
});

/**
 * The file's `rate_limits`, per client address (docs/security.md → Rate limits has the arithmetic). A school
 * of 2,000 pupils behind one NAT address, all signing in within one minute, makes about 2,000 authorize
 * requests (4,000 when every app first checks for a session with prompt=none) and 10,000 page views (5
 * screens each; 16,000 with mistakes and reloads): a third to a half of each budget. Over its busiest hour
 * (the morning sign-in plus five app launches per pupil) it makes about 14,000 authorize requests: under half
 * the hourly budget. The hourly budget is what bounds storage: an interaction lives 15 minutes
 * (src/provider/ttl.ts), so one address can keep at most 2 × 30,000 interactions in the store at a time (a
 * burst at the end of one hour window and another at the start of the next).
 */
export const RATE_LIMIT_DEFAULTS = numbers({
  /** Authorization requests per client address per minute. */
  authorize_per_minute: 10_000,
  /** Authorization requests per client address per hour. */
  authorize_per_hour: 30_000,
  /** Sign-in page views (GET /interaction/…) per client address per minute. */
  interaction_pages_per_minute: 30_000,
  /**
   * Class links opened (GET /class/<code>, POST /class) per client address per minute: a whole class behind one
   * school address opens a link at once, and a 50-bit code is out of reach of any budget's guesses anyway.
   */
  class_link_per_minute: 60,
  /** Class links opened per client address per hour. */
  class_link_per_hour: 600,
});

/**
 * The file's `roster` (docs/rostering.md): how `lanyard roster import` reads a school's information system. A
 * leaver (absent from a bulk users file, or `tobedeleted`) is held at once and deleted `retention_days` after
 * (90: a term and its holidays, time to notice a mistake in the export); a plan whose leavers are more than
 * `mass_removal_percent` of a school's roster-managed users is refused unless the operator confirms it (10: a
 * normal year's leavers are well under it, a truncated export well over it).
 */
export const ROSTER_DEFAULTS = {
  retention_days: 90,
  mass_removal_percent: 10,
  /** The source field that fills the SPEC's `roster_id` claim: the person's OneRoster sourcedId. */
  roster_id_from: 'sourcedId',
} as const;

/**
 * The file's `audit` (docs/storage.md → The audit trail): a school's audit trail is kept `retention_days` (365: a
 * school year and the next one's start, to answer "who signed in then?"), then deleted by the running server.
 * `enabled: false` records nothing: only for the bench, which measures what the trail costs.
 */
export const AUDIT_DEFAULTS = {
  retention_days: 365,
  enabled: true,
} as const;

/**
 * The file's `roster.types`: the SPEC's user `type` for each OneRoster role. A school may map a role
 * differently (teacher → employee); roles it does not name keep these.
 */
export const ROSTER_TYPES_DEFAULT: Readonly<Record<string, string>> = {
  student: 'student',
  teacher: 'teacher',
  administrator: 'admin',
  aide: 'employee',
  proctor: 'employee',
  guardian: 'guardian',
  parent: 'guardian',
  relative: 'guardian',
  // OneRoster 1.2's further roles.
  districtAdministrator: 'admin',
  siteAdministrator: 'admin',
  systemAdministrator: 'admin',
  principal: 'admin',
  counselor: 'employee',
};
