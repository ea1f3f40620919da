import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupDto } from '../../domain/schemas';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { actionsColumn } from '../../../src/ui/table/columns';
import { DataTable } from '../../../src/ui/table/DataTable';
import { canAdminApp, useAnalytics } from '../context';
import { NoApp } from '../NoApp';
import { lastDays } from '../period';
import { useConfirmDelete } from '../confirmDelete';
import { ListScreen } from '../ListScreen';
import { eventLabel } from './eventNames';
import { GroupDialog } from './GroupDialog';
import { useDashboardQuery } from '../../dataProvider/dashboard';

/** Events › Event groups: events followed together (at least 2 each). */
export function EventGroupsPage() {
  const { t } = useTranslation();
  const { api, app, session, writable } = useAnalytics();
  const [editing, setEditing] = useState<GroupDto | 'new' | null>(null);
  const appId = app?._id ?? '';
  const groups = useDashboardQuery(api, ['listGroups', appId], app ? (a) => a.listGroups(appId) : null);
  // The events to choose from: those seen in the last year.
  const events = useDashboardQuery(api, ['listEvents', appId], app ? (a) => a.listEvents(appId, lastDays(366)) : null);
  const labels = useMemo(() => new Map((events.data ?? []).map((e) => [e.key, eventLabel(e)])), [events.data]);
  const rows = useMemo(() => groups.data ?? [], [groups.data]);
  const deleteGroup = useConfirmDelete((a, group: GroupDto) => a.deleteGroup(appId, group._id));
  if (!app) return <NoApp />;
  const canEdit = writable && canAdminApp(session, app._id);

  const remove = (group: GroupDto) =>
    deleteGroup(group, { title: t('analytics.groups.deleteTitle'), message: t('analytics.groups.deleteBody', { name: group.name }), confirmLabel: t('analytics.delete') });

  return (
    <>
      <ListScreen
        titleKey="analytics.groups.title"
        create={canEdit ? { label: t('analytics.groups.create'), onClick: () => setEditing('new') } : undefined}
        notice={<QueryFailure error={groups.error} />}
      >
        <DataTable<GroupDto>
          id="analytics-groups"
          label={t('analytics.groups.title')}
          columns={[
            { id: 'name', header: t('analytics.groups.name'), value: (g) => g.name },
            {
              id: 'events',
              header: t('analytics.groups.events'),
              sortable: false,
              value: (g) => g.eventKeys.map((k) => labels.get(k) ?? k).join(', '),
              render: (g) => (
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                  {g.eventKeys.map((k) => (
                    <Chip key={k} size="small" label={labels.get(k) ?? k} />
                  ))}
                </Stack>
              ),
            },
            { id: 'visible', header: t('analytics.groups.visible'), value: (g) => (g.visible ? t('analytics.yes') : t('analytics.no')) },
            ...(canEdit
              ? [
                  actionsColumn<GroupDto>((g) => (
                    <Stack direction="row">
                      <IconButton aria-label={`${t('analytics.editAction')} ${g.name}`} onClick={() => setEditing(g)}>
                        <EditIcon />
                      </IconButton>
                      <IconButton aria-label={`${t('analytics.delete')} ${g.name}`} onClick={() => void remove(g)}>
                        <DeleteIcon />
                      </IconButton>
                    </Stack>
                  )),
                ]
              : []),
          ]}
          source={{ kind: 'local', rows }}
          getRowId={(g) => g._id}
          exportName="event-groups"
          emptyTitle={t('analytics.groups.empty')}
          emptyMessage={t('analytics.groups.emptyBody')}
          createLabel={t('analytics.groups.create')}
          canCreate={canEdit}
          onCreate={() => setEditing('new')}
        />
      </ListScreen>
      {editing && (
        <GroupDialog
          appId={app._id}
          group={editing === 'new' ? null : editing}
          events={(events.data ?? []).map((e) => ({ key: e.key, label: eventLabel(e) }))}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void groups.refetch();
          }}
        />
      )}
    </>
  );
}
