import { COMPANY_ROLES, type CompanyRole } from '../constants';

/**
 * Who may do what in a company. A member holds one role; each route needs one access level, and a
 * level is the set of roles that hold it. The API checks `ROUTE_ACCESS` before a request's body is
 * read (server/plugins/companyAccess.ts); the screens read the same levels to show what a role may
 * do (`may`). tests/api/roleAccess.test.ts walks every operation of the OpenAPI document with each
 * role and compares the answers with this table.
 */
export const ACCESS_LEVELS = {
  /** Anyone in the company: its name, projects, team list, plans. */
  member: ['admin', 'viewer', 'billing'],
  /** The servers and their dashboards, read only. */
  servers: ['admin', 'viewer'],
  /** Billing: invoices, receipts, the card, payments, usage and forecast, quotes to approve. */
  billing: ['admin', 'billing'],
  /** Ordering, changing and deleting servers, the team and the company itself. */
  admin: ['admin'],
} as const satisfies Record<string, readonly CompanyRole[]>;
export type AccessLevel = keyof typeof ACCESS_LEVELS;

export function may(role: CompanyRole | null | undefined, level: AccessLevel): boolean {
  return role != null && (ACCESS_LEVELS[level] as readonly CompanyRole[]).includes(role);
}

/**
 * Where a route names its company: directly (`company:…`), through a server (`server:…`) or a quote
 * (`quote:…`), read from the path, the query or the body.
 */
export type CompanySource =
  | 'company:params.id'
  | 'company:params.company'
  | 'company:query.company'
  | 'company:body.company'
  | 'server:params.id'
  | 'server:params.deploymentId'
  | 'server:query._id'
  | 'server:body._id'
  | 'quote:params.id';

export type RouteRule =
  /** Any signed-in user, about themselves or across their own companies. */
  | { scope: 'signedIn' }
  /** A member of the named company holding the level. */
  | { scope: 'company'; level: AccessLevel; company: CompanySource };

const self: RouteRule = { scope: 'signedIn' };
const company = (level: AccessLevel, source: CompanySource = 'company:params.id'): RouteRule => ({ scope: 'company', level, company: source });
const server = (level: AccessLevel, source: CompanySource = 'server:params.id'): RouteRule => ({ scope: 'company', level, company: source });

/**
 * Every route of the signed-in scope, keyed as the OpenAPI document names it ("METHOD /path/{param}", without /api/v1). The
 * open routes (sign-in, catalogue, webhooks, signed links, the analytics wing's own callers) and the
 * admin area's are not here: their scopes decide who reaches them.
 */
export const ROUTE_ACCESS = {
  // Servers: seen by admins and viewers; acted on by admins.
  'GET /deployments': company('servers', 'company:query.company'),
  'POST /deployments': company('admin', 'company:body.company'),
  'GET /deployments/by-company/{company}': company('servers', 'company:params.company'),
  'GET /deployments/by-user': self,
  'GET /deployments/events': server('servers', 'server:query._id'),
  'GET /deployments/{id}/populated': server('servers'),
  'GET /deployments/{id}/backups': server('servers'),
  'POST /deployments/{id}/backups': server('admin'),
  'GET /deployments/{id}/health-checks': server('servers'),
  'POST /deployments/{id}/backups/{backupId}/download': server('admin'),
  'DELETE /deployments/{id}': server('admin'),
  'PUT /deployments/{id}': server('admin'),
  'GET /deployments/{id}/cancel-termination': server('admin'),
  'POST /deployments/{id}/restore': server('admin'),
  'POST /deployments/{id}/restart': server('admin'),
  'POST /deployments/{id}/health-check': server('admin'),
  'POST /deployments/{id}/update-domain': server('admin'),
  'POST /deployments/{id}/verify-domain': server('admin'),
  'POST /deployments/{id}/unlock-users': server('admin'),
  'GET /deployments/{id}/certificate': server('servers'),
  'POST /deployments/generate-review': server('servers', 'server:body._id'),
  'GET /deployments/pastdue/{company}': company('member', 'company:params.company'),
  'POST /analytics/{deploymentId}/open': server('servers', 'server:params.deploymentId'),
  'GET /plans/configurables': self,
  'GET /plangroups/company/{id}/plans': company('member'),
  // Money: admins and the billing role.
  'GET /companies/{id}/billing': company('billing'),
  'POST /companies/{id}/billing/card': company('billing'),
  'POST /companies/{id}/billing/card/checkout': company('billing'),
  'GET /companies/{id}/transactions/{txId}/receipt': company('billing'),
  'GET /companies/{id}/transactions/{txId}/invoice': company('billing'),
  'GET /payments/checkout/{deploymentId}': server('billing', 'server:params.deploymentId'),
  'POST /payments/checkout/{deploymentId}/pay': server('billing', 'server:params.deploymentId'),
  'POST /payments/checkout/{deploymentId}/pay-with-card-on-file': server('billing', 'server:params.deploymentId'),
  'GET /companies/{id}/usage': company('billing'),
  'PUT /companies/{id}/usage-alerts': company('billing'),
  // Quotes: prepared by those who may order, approved by those who pay.
  'POST /companies/{id}/quotes': company('admin'),
  'GET /companies/{id}/quotes': company('billing'),
  'GET /quotes/{id}': company('billing', 'quote:params.id'),
  'GET /quotes/{id}/document': company('billing', 'quote:params.id'),
  'POST /quotes/{id}/approve': company('billing', 'quote:params.id'),
  'POST /quotes/{id}/decline': company('billing', 'quote:params.id'),
  // The company and its team.
  'POST /companies': self,
  'GET /companies/{id}': company('member'),
  'PUT /companies/{id}': company('admin'),
  'DELETE /companies/{id}': company('admin'),
  'GET /companies/{id}/users': company('member'),
  'POST /companies/{id}/invitations': company('admin'),
  'DELETE /companies/{id}/users/{userId}': company('admin'),
  'DELETE /companies/{id}/invitations/{invitationId}': company('admin'),
  'GET /companies/{id}/projects': company('member'),
  'POST /companies/{id}/projects': company('admin'),
  'PUT /companies/{id}/projects/{projectId}': company('admin'),
  'DELETE /companies/{id}/projects/{projectId}': company('admin'),
  // The signed-in user's own account.
  'GET /auth/me': self,
  'DELETE /auth/me': self,
  'GET /auth/intercom-hash': self,
  'POST /auth/verify/issue': self,
  'POST /auth/set-password': self,
  'POST /auth/reauthenticate': self,
  'POST /auth/2fa/initiate': self,
  'POST /auth/2fa/enable': self,
  'POST /auth/2fa/disable': self,
  'GET /auth/passkeys': self,
  'POST /auth/passkeys': self,
  'POST /auth/passkeys/options': self,
  'DELETE /auth/passkeys/{id}': self,
  'GET /auth/beacon-server': self,
  'PUT /users/{id}': self,
  'GET /users/me/pending-order': self,
  'DELETE /users/me/pending-order': self,
  'GET /users/{id}/export': self,
  'DELETE /view-as': self,
} as const satisfies Record<string, RouteRule>;
export type CustomerRoute = keyof typeof ROUTE_ACCESS;

/** The rule of a route as the OpenAPI document names it; undefined when it is not a customer route. */
export function routeRule(key: string): RouteRule | undefined {
  return (ROUTE_ACCESS as Record<string, RouteRule>)[key];
}

/** The level a customer route needs, for screens deciding what to offer. */
export function levelOf(route: CustomerRoute): AccessLevel | null {
  const rule: RouteRule = ROUTE_ACCESS[route];
  return rule.scope === 'company' ? rule.level : null;
}

/** May this role call this route (screens hide what the API would refuse)? */
export function roleMay(role: CompanyRole | null | undefined, route: CustomerRoute): boolean {
  const level = levelOf(route);
  return level === null || may(role, level);
}

export { COMPANY_ROLES };
