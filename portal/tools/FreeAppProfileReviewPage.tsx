import './i18n';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toolsApi } from '../../dataProvider/tools';
import { APP_REVIEW_PLATFORMS } from '../../src/domain/constants';
import type { AppProfileReviewInput } from '../../src/domain/tools/schemas';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';

const reviewForm = import('./reviewForm');
const FIELDS = ['appName', 'platform', 'storeUrl', 'email'] as const;
const EMPTY = { appName: '', platform: undefined, storeUrl: '', email: '' } as unknown as AppProfileReviewInput;

/** /tools/free-app-profile-review (SPEC §2 tools pages): a visitor asks for a free review of their app's analytics set-up. */
export default function FreeAppProfileReviewPage() {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState, reset } = useForm<AppProfileReviewInput>({ resolver: lazyResolver(reviewForm, (m) => m.reviewResolver), mode: 'onTouched', defaultValues: EMPTY });
  const { run, failure } = useFormSubmit({ fields: FIELDS, setError });
  const submit = handleSubmit(async (body) => {
    await run(async () => {
      await toolsApi.requestAppProfileReview(body);
      setSentTo(body.email);
    });
  });
  const platforms = APP_REVIEW_PLATFORMS.map((value) => ({ value, label: t(`tools.review.platforms.${value}`) }));

  return (
    <Box sx={{ maxWidth: 1080, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 3, md: 6 } }}>
      <Typography variant="h2" component="h1" sx={{ mb: 1 }}>
        {t('tools.review.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 720 }}>
        {t('tools.review.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, alignItems: 'start' }}>
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          {sentTo ? (
            <Stack spacing={2} role="status">
              <Typography variant="h5" component="h2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <CheckCircleOutline color="success" /> {t('tools.review.doneTitle')}
              </Typography>
              <Typography>{t('tools.review.doneBody', { email: sentTo })}</Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Button variant="contained" component={RouterLink} to="/tools/dashboard-preview">
                  {t('tools.review.previewLink')}
                </Button>
                <Button
                  onClick={() => {
                    reset(EMPTY);
                    setSentTo(null);
                  }}
                >
                  {t('tools.review.another')}
                </Button>
              </Stack>
            </Stack>
          ) : (
            <Box component="form" noValidate onSubmit={submit}>
              <Stack spacing={2.5}>
                {failure && (
                  <Alert severity="error" role="alert">
                    {failure}
                  </Alert>
                )}
                <FormTextField control={control} name="appName" label={t('tools.review.appName')} autoFocus maxLength={100} />
                <NativeSelectField control={control} name="platform" label={t('tools.review.platform')} options={platforms} placeholder={t('tools.review.choosePlatform')} />
                <FormTextField control={control} name="storeUrl" label={t('tools.review.storeUrl')} type="url" maxLength={500} />
                <Typography variant="body2" color="text.secondary" sx={{ mt: '4px !important' }}>
                  {t('tools.review.storeUrlHint')}
                </Typography>
                <FormTextField control={control} name="email" label={t('tools.review.email')} type="email" inputMode="email" autoComplete="email" />
                <Button type="submit" variant="contained" size="large" loading={formState.isSubmitting}>
                  {t('tools.review.submit')}
                </Button>
                <Typography variant="body2" color="text.secondary">
                  {t('tools.review.privacy')}
                </Typography>
              </Stack>
            </Box>
          )}
        </Paper>
        <Box component="aside">
          <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
            {t('tools.review.whatYouGet')}
          </Typography>
          <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0, mb: 3 }}>
            {(['events', 'limits', 'ideas'] as const).map((point) => (
              <Box component="li" key={point} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <CheckCircleOutline color="primary" fontSize="small" sx={{ mt: '2px' }} />
                <Typography>{t(`tools.review.points.${point}`)}</Typography>
              </Box>
            ))}
          </Stack>
          <Link component={RouterLink} to="/tools/dashboard-preview">
            {t('tools.review.previewLink')}
          </Link>
        </Box>
      </Box>
    </Box>
  );
}
