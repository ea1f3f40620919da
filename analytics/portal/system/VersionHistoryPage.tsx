import Paper from '@mui/material/Paper';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { VersionDto } from '../../domain/schemas';
import { DataTable } from '../../../src/ui/table/DataTable';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { useDashboardQuery } from '../../dataProvider/dashboard';

/** Version history: each dashboard version this server has run, with the date it started. */
export function VersionHistoryPage() {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const versions = useDashboardQuery(api, ['listVersions'], (a) => a.listVersions());
  const rows = useMemo(() => versions.data ?? [], [versions.data]);
  return (
    <>
      <ScreenHeading titleKey="analytics.versions.title" />
      <QueryFailure error={versions.error} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        {versions.data && (
          <DataTable<VersionDto>
            id="analytics-versions"
            label={t('analytics.versions.title')}
            columns={[
              { id: 'version', header: t('analytics.versions.version'), value: (v) => v.version },
              { id: 'installedAt', header: t('analytics.versions.installed'), value: (v) => new Date(v.installedAt).toLocaleString('en-US') },
            ]}
            source={{ kind: 'local', rows }}
            getRowId={(v) => `${v.version}:${v.installedAt}`}
            exportName="version-history"
            emptyTitle={t('analytics.versions.empty')}
            canCreate={false}
            defaultSort={{ field: 'installedAt', order: 'DESC' }}
          />
        )}
      </Paper>
    </>
  );
}
