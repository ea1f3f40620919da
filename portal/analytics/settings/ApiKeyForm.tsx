import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_PATTERN } from '../../../src/domain/analytics/constants';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { failureMessage } from '../../../src/ui/form/messages';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';

/** The member's API key: exactly 32 letters and digits, typed or regenerated. The key is shown only when just set. */
export function ApiKeyForm() {
  const { t } = useTranslation();
  const { api, writable } = useAnalytics();
  const [key, setKey] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const invalid = key !== '' && !API_KEY_PATTERN.test(key);

  const run = async (work: () => Promise<{ apiKey: string }>) => {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await work();
      setKey(answer.apiKey);
      showToast({ text: t('analytics.settings.keySaved'), variant: 'successful' });
    } catch (error) {
      setFailure(failureMessage(error, t));
    } finally {
      setBusy(false);
    }
  };
  const save = () => {
    if (!API_KEY_PATTERN.test(key)) return setFailure(t('analytics.settings.apiKeyInvalid'));
    void run(() => api.setApiKey(key));
  };
  const regenerate = async () => {
    if (!(await confirm({ type: 'danger', title: t('analytics.settings.regenerateTitle'), message: t('analytics.settings.regenerateBody'), labels: { confirm: t('analytics.settings.regenerate') } }))) return;
    void run(() => api.regenerateApiKey());
  };
  return (
    <Stack component="form" noValidate spacing={2} aria-label={t('analytics.settings.apiKey')} onSubmit={(e) => (e.preventDefault(), save())}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <TextField
        label={t('analytics.settings.apiKey')}
        value={key}
        error={invalid}
        helperText={invalid ? t('analytics.settings.apiKeyInvalid') : t('analytics.settings.apiKeyHint')}
        onChange={(e) => setKey(e.target.value.trim())}
        slotProps={{ htmlInput: { maxLength: 64, spellCheck: false, style: { fontFamily: 'monospace' } } }}
        disabled={!writable}
      />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" loading={busy} disabled={!writable}>
          {t('analytics.save')}
        </Button>
        <Button onClick={() => void regenerate()} disabled={!writable || busy}>
          {t('analytics.settings.regenerate')}
        </Button>
      </Stack>
    </Stack>
  );
}
