import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SDK_SETTINGS_DEFAULTS, type SdkSettings, type SdkSettingsAnswer } from '../../domain/sdk';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';

/** The settings shown here; the others (block and allow lists...) are kept as they are, set through the API. */
const FLAGS = ['tracking', 'networking', 'st', 'vt', 'cet', 'crt', 'lt', 'cr'] as const;
const NUMBERS = ['rqs', 'eqs', 'sui', 'scui'] as const;
type Shown = (typeof FLAGS)[number] | (typeof NUMBERS)[number];
/** Per shown key: '' for the SDK's default, else 'true'/'false' or the number as typed. */
type Draft = Record<Shown, string>;

const draftOf = (settings: SdkSettings): Draft => Object.fromEntries([...FLAGS, ...NUMBERS].map((k) => [k, settings[k] === undefined ? '' : String(settings[k])])) as Draft;

/** The SDK behaviour settings the SDKs fetch from /o/sdk: each left at the SDK's default or set for this app (its admins). */
export function AppSdkSettings({ appId, canAdmin }: { appId: string; canAdmin: boolean }) {
  const { api } = useAnalytics();
  const loaded = useDashboardQuery(api, ['sdkSettings', appId], (a) => a.sdkSettings(appId));
  if (!loaded.data) return <QueryFailure error={loaded.error} />;
  return <SdkSettingsForm key={loaded.data.updatedAt} answer={loaded.data} appId={appId} canAdmin={canAdmin} />;
}

function SdkSettingsForm({ answer, appId, canAdmin }: { answer: SdkSettingsAnswer; appId: string; canAdmin: boolean }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [draft, setDraft] = useState<Draft>(() => draftOf(answer.settings));
  const update = useDashboardMutation(api, (a, settings: SdkSettings) => a.updateSdkSettings(appId, settings));
  const { run, submitting: saving } = useFormSubmit({ report: 'toast' });
  const set = (key: Shown, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const save = async () => {
    const kept: Record<string, unknown> = Object.fromEntries(Object.entries(answer.settings).filter(([k]) => !(FLAGS as readonly string[]).includes(k) && !(NUMBERS as readonly string[]).includes(k)));
    for (const k of FLAGS) if (draft[k] !== '') kept[k] = draft[k] === 'true';
    for (const k of NUMBERS) if (draft[k].trim() !== '') kept[k] = Number(draft[k]);
    if (await run(() => update.mutateAsync(kept as SdkSettings))) showToast({ text: t('analytics.saved'), variant: 'successful' });
  };
  const fallback = (k: Shown) => String(SDK_SETTINGS_DEFAULTS[k]);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-label={t('analytics.sdk.title')}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.125rem', mb: 1 }}>
        {t('analytics.sdk.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('analytics.sdk.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {FLAGS.map((k) => (
          <TextField key={k} select size="small" label={t(`analytics.sdk.keys.${k}`)} value={draft[k]} onChange={(e) => set(k, e.target.value)} disabled={!canAdmin} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
            <MenuItem value="">{t('analytics.sdk.sdkDefault', { value: t(fallback(k) === 'true' ? 'analytics.sdk.on' : 'analytics.sdk.off') })}</MenuItem>
            <MenuItem value="true">{t('analytics.sdk.on')}</MenuItem>
            <MenuItem value="false">{t('analytics.sdk.off')}</MenuItem>
          </TextField>
        ))}
        {NUMBERS.map((k) => (
          <TextField key={k} size="small" type="number" label={t(`analytics.sdk.keys.${k}`)} value={draft[k]} placeholder={t('analytics.sdk.sdkDefault', { value: fallback(k) })} onChange={(e) => set(k, e.target.value)} disabled={!canAdmin} slotProps={{ htmlInput: { min: 0 }, inputLabel: { shrink: true } }} />
        ))}
      </Box>
      {canAdmin && (
        <Button variant="contained" sx={{ mt: 2 }} onClick={() => void save()} disabled={saving}>
          {t('analytics.save')}
        </Button>
      )}
    </Paper>
  );
}
