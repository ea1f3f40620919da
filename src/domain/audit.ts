/**
 * The audit log's vocabulary (issue: admin logs). An action is `<target>.<verb>`; the admin area
 * filters on the target type, so the list lives here where both sides can read it.
 */
export const AUDIT_TARGET_TYPES = ['user', 'company', 'project', 'member', 'invitation', 'deployment', 'subscription', 'task', 'job', 'planGroup', 'system', 'analyticsTenant', 'analyticsApp', 'analyticsMember', 'analyticsToken', 'analyticsReport', 'quote'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One audit row on the wire (admin logs list and export). */
export interface AuditLogDto {
  _id: string;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: AuditTargetType;
  targetId: string;
  companyId: string | null;
  ip: string | null;
  before: unknown;
  after: unknown;
}

/** Fields that are secrets wherever they appear in a change: the audit log records only that they changed. */
export const SECRET_AUDIT_FIELDS = ['checksumSalt'] as const;
export const REDACTED = '[redacted]';

/**
 * A change's fields with every secret (at any depth) replaced by REDACTED, a cleared one (null or
 * empty) left as it is. Applied when a row is written and again when rows are read or exported,
 * so rows written before a field was known as secret do not show it either.
 */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => redactSecrets(v)) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, (SECRET_AUDIT_FIELDS as readonly string[]).includes(k) && v !== null && v !== '' ? REDACTED : redactSecrets(v)]),
  ) as T;
}
