import Box from '@mui/material/Box';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditLogRow } from '../../src/domain/admin/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { ChangesButton } from './ChangesButton';
import { Clipped } from '../Clipped';
import { LogFilters, NO_LOG_FILTERS, type LogFilterValues } from './LogFilters';
import { isUuid, targetLabel } from './targetLabel';
import { codeAsWords } from '../../src/ui/format';

type LogRow = AuditLogRow & { id: string };

/** Where an entry's target is in the admin area, when it has a page there (a member is a user). */
const TARGET_PAGES: Partial<Record<AuditLogRow['targetType'], string>> = { user: 'users', member: 'users', company: 'companies', planGroup: 'plan-groups', deployment: 'deployments', task: 'taskDetail' };

/** The audit log: who did what to which target, when, from where; newest first; read-only. */
export function LogList() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<LogFilterValues>(NO_LOG_FILTERS);
  const columns = useMemo<DataTableColumn<LogRow>[]>(() => {
    const f = (field: string) => t(`resources.logs.fields.${field}`);
    const typeOf = (l: LogRow) => t(`resources.logs.targetTypes.${l.targetType}`, { defaultValue: codeAsWords(l.targetType) });
    return [
      { id: 'at', header: f('at'), value: (l) => formatDateTime(l.at) },
      { id: 'actorEmail', header: f('actorEmail'), value: (l) => l.actorEmail ?? t('resources.logs.system'), render: (l) => <Clipped text={l.actorEmail ?? t('resources.logs.system')} width={200} /> },
      { id: 'action', header: f('action'), value: (l) => t(`resources.logs.actions.${l.action}`, { defaultValue: codeAsWords(l.action) }) },
      // The target's kind in grey before its name ("Server Leaving Server"): one column, so the table fits a 1440 px screen.
      {
        id: 'targetName',
        header: f('targetId'),
        sortable: false,
        value: (l) => targetLabel(l, t),
        render: (l) => {
          const page = TARGET_PAGES[l.targetType];
          const label = targetLabel(l, t);
          return (
            <Clipped text={`${typeOf(l)}: ${label}`} width={280}>
              <Box component="span" sx={{ color: 'text.secondary', mr: 0.75 }}>
                {typeOf(l)}
              </Box>
              {page && isUuid(l.targetId) ? (
                <RecordLink name={page} id={l.targetId}>
                  {label}
                </RecordLink>
              ) : (
                label
              )}
            </Clipped>
          );
        },
      },
      { id: 'targetType', header: f('targetType'), dynamic: true, defaultSelected: false, value: typeOf },
      { id: 'ip', header: f('ip'), sortable: false, dynamic: true, defaultSelected: true, value: (l) => l.ip ?? '' },
      {
        id: 'companyName',
        header: f('companyId'),
        sortable: false,
        dynamic: true,
        value: (l) => l.companyName ?? '',
        render: (l) =>
          l.companyId ? (
            <Clipped text={l.companyName ?? l.companyId} width={180}>
              <RecordLink name="companies" id={l.companyId}>
                {l.companyName ?? targetLabel({ targetId: l.companyId, targetName: null }, t)}
              </RecordLink>
            </Clipped>
          ) : (
            ''
          ),
      },
      { id: 'targetId', header: f('targetRef'), sortable: false, dynamic: true, defaultSelected: false, value: (l) => l.targetId },
      { id: 'changes', header: f('changes'), sortable: false, exportable: false, value: () => '', render: (l) => <ChangesButton entry={l} /> },
    ];
  }, [t]);
  return <AdminList name="logs" columns={columns} filter={{ ...filters }} filters={<LogFilters value={filters} onChange={setFilters} />} defaultSort={{ field: 'at', order: 'DESC' }} />;
}
