/**
 * The audit log's vocabulary (issue: admin logs). An action is `<target>.<verb>`; the admin area
 * filters on the target type, so the list lives here where both sides can read it.
 */
export const AUDIT_TARGET_TYPES = ['user', 'company', 'project', 'member', 'invitation', 'deployment', 'subscription', 'task', 'job', 'planGroup', 'system', 'analyticsTenant', 'analyticsApp', 'analyticsMember', 'analyticsToken', 'analyticsReport'] as const;
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
