import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportDto, ReportPreview } from '../../domain/schemas';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { DataTable } from '../../../src/ui/table/DataTable';
import { showToast } from '../../../src/ui/toast/toastStore';
import { canAdminApp, useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { PreviewDialog } from './PreviewDialog';
import { ReportActions } from './ReportActions';
import { ReportDialog } from './ReportDialog';
import { describeSchedule } from './schedule';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '');

/** Report manager: email reports of the dashboard's numbers, sent daily, weekly or monthly. */
export function ReportsPage() {
  const { t } = useTranslation();
  const { api, apps, session, writable } = useAnalytics();
  const reports = useDashboardQuery(api, ['listReports'], (a) => a.listReports());
  const [editing, setEditing] = useState<ReportDto | 'new' | null>(null);
  const [preview, setPreview] = useState<ReportPreview | null>(null);
  const rows = useMemo(() => reports.data ?? [], [reports.data]);
  const adminApps = apps.filter((a) => canAdminApp(session, a._id));
  const canCreate = writable && adminApps.length > 0;
  const canEdit = (r: ReportDto) => writable && r.apps.every((id) => canAdminApp(session, id));
  const appNames = (ids: string[]) => ids.map((id) => apps.find((a) => a._id === id)?.name ?? id).join(', ');

  const deleteReport = useDashboardMutation(api, (a, id: string) => a.deleteReport(id));
  const sendReport = useDashboardMutation(api, (a, id: string) => a.sendReport(id));
  const setEnabled = useDashboardMutation(api, (a, { id, enabled }: { id: string; enabled: boolean }) => a.setReportEnabled(id, enabled));
  const previewReport = useDashboardMutation(api, (a, id: string) => a.previewReport(id));
  const { run } = useFormSubmit({ report: 'toast' });
  const act = async (work: () => Promise<unknown>, done?: string) => {
    if ((await run(work)) && done) showToast({ text: done, variant: 'successful' });
  };
  const remove = async (r: ReportDto) => {
    if (await confirm({ type: 'danger', title: t('analytics.reports.deleteTitle'), message: t('analytics.reports.deleteBody', { name: r.title }), labels: { confirm: t('analytics.delete') } })) await act(() => deleteReport.mutateAsync(r._id));
  };
  const send = async (r: ReportDto) => {
    if (await confirm({ type: 'secondary', title: t('analytics.reports.sendTitle'), message: t('analytics.reports.sendBody', { name: r.title, count: r.emails.length }), labels: { confirm: t('analytics.reports.sendNow') } }))
      await act(() => sendReport.mutateAsync(r._id), t('analytics.reports.sent'));
  };
  const showPreview = async (r: ReportDto) => {
    await run(async () => setPreview(await previewReport.mutateAsync(r._id)));
  };

  return (
    <>
      <ScreenHeading titleKey="analytics.reports.title">
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            {t('analytics.reports.create')}
          </Button>
        )}
      </ScreenHeading>
      <QueryFailure error={reports.error} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <DataTable<ReportDto>
          id="analytics-reports"
          label={t('analytics.reports.title')}
          columns={[
            { id: 'title', header: t('analytics.reports.name'), value: (r) => r.title },
            // Optional: with the actions, every column at once is wider than a laptop's table.
            { id: 'apps', header: t('analytics.reports.apps'), sortable: false, dynamic: true, defaultSelected: false, value: (r) => appNames(r.apps) },
            {
              id: 'emails',
              header: t('analytics.reports.emails'),
              sortable: false,
              value: (r) => r.emails.join(', '),
              // The first address and how many more: a long list would push the actions off the row.
              render: (r) => (
                <Tooltip title={r.emails.join(', ')}>
                  <span>{r.emails.length > 1 ? t('analytics.reports.emailsMore', { first: r.emails[0], count: r.emails.length - 1 }) : r.emails[0]}</span>
                </Tooltip>
              ),
            },
            { id: 'schedule', header: t('analytics.reports.frequency'), sortable: false, value: (r) => describeSchedule(t, r) },
            { id: 'nextRunAt', header: t('analytics.reports.nextRun'), value: (r) => (r.enabled ? when(r.nextRunAt) : '') },
            {
              id: 'enabled',
              header: t('analytics.reports.enabled'),
              value: (r) => (r.enabled ? t('analytics.yes') : t('analytics.no')),
              render: (r) => (
                <Switch
                  checked={r.enabled}
                  disabled={!canEdit(r)}
                  slotProps={{ input: { 'aria-label': t('analytics.reports.enabledFor', { name: r.title }) } }}
                  onChange={(e) => void act(() => setEnabled.mutateAsync({ id: r._id, enabled: e.target.checked }))}
                />
              ),
            },
            {
              id: 'actions',
              header: '',
              sortable: false,
              exportable: false,
              value: () => '',
              render: (r) => (canEdit(r) ? <ReportActions report={r} onSend={() => void send(r)} onPreview={() => void showPreview(r)} onEdit={() => setEditing(r)} onDelete={() => void remove(r)} /> : null),
            },
          ]}
          source={{ kind: 'local', rows }}
          getRowId={(r) => r._id}
          exportName="reports"
          emptyTitle={t('analytics.reports.empty')}
          emptyMessage={t('analytics.reports.emptyBody')}
          createLabel={t('analytics.reports.create')}
          canCreate={canCreate}
          onCreate={() => setEditing('new')}
        />
      </Paper>
      {editing && (
        <ReportDialog
          report={editing === 'new' ? null : editing}
          apps={adminApps}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void reports.refetch();
          }}
        />
      )}
      {preview && <PreviewDialog preview={preview} onClose={() => setPreview(null)} />}
    </>
  );
}
