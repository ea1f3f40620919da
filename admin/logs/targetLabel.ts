import type { AuditLogRow } from '../../src/domain/admin/schemas';
import { codeAsWords } from '../../src/ui/format';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

/** A log entry's target by its name; one whose name is unknown (gone, or never named) by a short reference, never a whole UUID. */
export function targetLabel(l: Pick<AuditLogRow, 'targetId' | 'targetName'>, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (l.targetName) return l.targetName;
  if (!l.targetId) return '';
  return isUuid(l.targetId) ? t('resources.logs.unnamed', { ref: l.targetId.slice(0, 8) }) : codeAsWords(l.targetId);
}
