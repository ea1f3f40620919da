import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditLogRow } from '../../src/domain/admin/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { ChangesButton } from './ChangesButton';
import { LogFilters, NO_LOG_FILTERS, type LogFilterValues } from './LogFilters';
import { codeAsWords } from '../../src/ui/format';

type LogRow = AuditLogRow & { id: string };

/** Where an entry's target is in the admin area, when it has a page there. */
const TARGET_PAGES: Partial<Record<AuditLogRow['targetType'], string>> = { user: 'users', company: 'companies', planGroup: 'plan-groups' };

/** The audit log: who did what to which target, when, from where; newest first; read-only. */
export function LogList() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<LogFilterValues>(NO_LOG_FILTERS);
  const columns = useMemo<DataTableColumn<LogRow>[]>(() => {
    const f = (field: string) => t(`resources.logs.fields.${field}`);
    return [
      { id: 'at', header: f('at'), value: (l) => formatDateTime(l.at) },
      { id: 'actorEmail', header: f('actorEmail'), value: (l) => l.actorEmail ?? t('resources.logs.system') },
      { id: 'action', header: f('action'), value: (l) => t(`resources.logs.actions.${l.action}`, { defaultValue: codeAsWords(l.action) }) },
      { id: 'targetType', header: f('targetType'), value: (l) => t(`resources.logs.targetTypes.${l.targetType}`, { defaultValue: codeAsWords(l.targetType) }) },
      {
        id: 'targetId',
        header: f('targetId'),
        sortable: false,
        value: (l) => l.targetId,
        render: (l) => {
          const page = TARGET_PAGES[l.targetType];
          return page ? <RecordLink name={page} id={l.targetId}>{l.targetId}</RecordLink> : l.targetId;
        },
      },
      { id: 'ip', header: f('ip'), sortable: false, dynamic: true, defaultSelected: true, value: (l) => l.ip ?? '' },
      { id: 'companyId', header: f('companyId'), sortable: false, dynamic: true, value: (l) => l.companyId ?? '' },
      { id: 'changes', header: f('changes'), sortable: false, exportable: false, value: () => '', render: (l) => <ChangesButton entry={l} /> },
    ];
  }, [t]);
  return <AdminList name="logs" columns={columns} filter={{ ...filters }} filters={<LogFilters value={filters} onChange={setFilters} />} defaultSort={{ field: 'at', order: 'DESC' }} />;
}
