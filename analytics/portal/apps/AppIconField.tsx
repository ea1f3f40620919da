import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../../dataProvider/httpClient';
import type { AppDto } from '../../domain/schemas';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { useAnalytics } from '../context';
import { isIconType } from './iconRules';

/** The app icon: shown, and replaced by an upload of a JPG, PNG or GIF. */
export function AppIconField({ app, disabled, onChange }: { app: AppDto; disabled: boolean; onChange: () => void }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [wrongType, setWrongType] = useState(false);
  const send = useDashboardMutation(api, (a, file: File) => a.uploadAppIcon(app._id, file));
  const { run, failure, submitting } = useFormSubmit();
  const problem = wrongType ? t('analytics.apps.iconType') : failure;
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setWrongType(!isIconType(file));
    if (isIconType(file) && (await run(() => send.mutateAsync(file)))) onChange();
  };
  return (
    <Stack spacing={1} sx={{ mb: 3 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar variant="rounded" src={app.iconFileId ? `${API_BASE}/files/${app.iconFileId}` : undefined} alt="" sx={{ width: 56, height: 56 }}>
          {app.name.slice(0, 2).toUpperCase()}
        </Avatar>
        <div>
          <Typography sx={{ fontWeight: 600 }}>{t('analytics.apps.icon')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('analytics.apps.iconHint')}
          </Typography>
        </div>
        {!disabled && (
          <Button component="label" variant="outlined" loading={submitting}>
            {t('analytics.editAction')}
            <input hidden type="file" accept="image/jpeg,image/png,image/gif" aria-label={t('analytics.apps.icon')} onChange={(e) => void upload(e.target.files?.[0])} />
          </Button>
        )}
      </Stack>
      {problem && (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}
