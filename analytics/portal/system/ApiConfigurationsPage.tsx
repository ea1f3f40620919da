import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LimitsAnswer } from '../../dataProvider/dashboard';
import type { AppUpdate } from '../../domain/schemas';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { showToast } from '../../../src/ui/toast/toastStore';
import { canAdminApp, useAnalytics } from '../context';
import { NoApp } from '../NoApp';
import { ScreenHeading } from '../ScreenHeading';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';

const LIMITS = ['eventKeys', 'segmentsPerEvent', 'valuesPerSegment'] as const;
const DROP_OF = { eventKeys: 'event_keys', segmentsPerEvent: 'segments', valuesPerSegment: 'segment_values' } as const;

/** API configurations (the page the limit messages link to): the app's three ingestion limits and what they dropped. */
export function ApiConfigurationsPage() {
  const { app } = useAnalytics();
  if (!app) return <NoApp />;
  return <Limits key={app._id} appId={app._id} name={app.name} />;
}

function Limits({ appId, name }: { appId: string; name: string }) {
  const { t } = useTranslation();
  const { api, session, writable } = useAnalytics();
  const limits = useDashboardQuery(api, ['limits', appId], (a) => a.limits(appId));
  return (
    <>
      <ScreenHeading titleKey="analytics.configurations.title" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('analytics.configurations.intro', { name })}
        </Typography>
        <QueryFailure error={limits.error} />
        {limits.data && <LimitsForm appId={appId} answer={limits.data} canEdit={writable && canAdminApp(session, appId)} />}
      </Paper>
    </>
  );
}

function LimitsForm({ appId, answer, canEdit }: { appId: string; answer: LimitsAnswer; canEdit: boolean }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [values, setValues] = useState<Record<(typeof LIMITS)[number], string>>(() => Object.fromEntries(LIMITS.map((k) => [k, String(answer.limits[k])])) as Record<(typeof LIMITS)[number], string>);
  const update = useDashboardMutation(api, (a, body: AppUpdate) => a.updateApp(appId, body));
  const { run, failure } = useFormSubmit();
  const dropped = (k: (typeof LIMITS)[number]) => answer.drops.find((d) => d.kind === DROP_OF[k])?.count ?? 0;
  const save = async () => {
    if (await run(() => update.mutateAsync({ limits: Object.fromEntries(LIMITS.map((k) => [k, Number(values[k])])) }))) showToast({ text: t('analytics.saved'), variant: 'successful' });
  };
  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(e) => (e.preventDefault(), void save())}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {LIMITS.map((k) => (
        <TextField
          key={k}
          type="number"
          label={t(`analytics.configurations.${k}`)}
          value={values[k]}
          onChange={(e) => setValues({ ...values, [k]: e.target.value })}
          helperText={`${t('analytics.configurations.drops')}: ${dropped(k)}`}
          disabled={!canEdit}
          slotProps={{ htmlInput: { min: 1 } }}
        />
      ))}
      {canEdit && (
        <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>
          {t('analytics.save')}
        </Button>
      )}
    </Stack>
  );
}
