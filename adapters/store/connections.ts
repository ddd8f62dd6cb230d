/**
 * The apps each school uses (docs/dashboard-and-app-launch.md): an app connected to an organisation appears on its users'
 * dashboards, in the school's order, and may sign them in (src/dashboard/school-apps.ts and src/clients/app-availability.ts decide).
 * Connections come from the configuration file (`organisations[].apps`, rewritten at every start), from
 * an operator (`lanyard apps connect|disconnect`) or from a school admin in the school console (connecting an
 * offered app, or approving a developer's request: docs/school-console.md → Apps). Deleting a client removes
 * its connections.
 */

/** Where a connection was made: the configuration file, `lanyard apps connect`, or a school admin in the console. */
export type ConnectionSource = 'config' | 'operator' | 'school';

export interface AppConnection {
  organisationId: string;
  clientId: string;
  /** Only users of these types (SPEC: user `type`, e.g. student, employee) may use the app; undefined: every user. */
  userTypes?: string[] | undefined;
  /** The school's order on the dashboard: lowest first (ties by client_id). */
  position: number;
  source: ConnectionSource;
  /** ISO 8601. */
  createdAt: string;
}

export interface Connections {
  /** Creates or replaces the connection (by organisation and client); refused (404) when the client does not exist. */
  putConnection(connection: AppConnection): Promise<void>;
  /** false when there was none. */
  deleteConnection(organisationId: string, clientId: string): Promise<boolean>;
  findConnection(organisationId: string, clientId: string): Promise<AppConnection | undefined>;
  /** The organisation's connections, by position, then client_id. */
  listConnections(organisationId: string): Promise<AppConnection[]>;
  /** The client's connections, by organisation id. */
  listClientConnections(clientId: string): Promise<AppConnection[]>;
}
