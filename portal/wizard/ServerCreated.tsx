import CheckCircle from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMay } from '../../src/companyRole';
import { wizard } from './store';
import './i18n';

/**
 * SPEC §2 serverCreated: the order went through; the wizard is no longer in progress. Someone who
 * paid without seeing servers (the billing role, approving a quote) goes back to Billing instead.
 */
export function ServerCreated({ name, editing, deploymentsPath, dashboardPath }: { name: string; editing: boolean; deploymentsPath: string; dashboardPath: string }) {
  const { t } = useTranslation();
  const seesServers = useMay('servers');
  useEffect(() => wizard.close(), []);
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 4, md: 8 }, maxWidth: 560, mx: 'auto' }}>
      <CheckCircle color="success" sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h2" sx={{ mt: 2, fontSize: { xs: '1.4rem', md: '1.8rem' } }}>
        {editing ? t('wizard.created.updated') : t('wizard.created.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t(editing ? 'wizard.created.updatedBody' : 'wizard.created.body', { name })}
      </Typography>
      {!seesServers ? (
        <Button variant="contained" component={RouterLink} to="/management/billing">
          {t('wizard.created.toBilling')}
        </Button>
      ) : (
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button variant="contained" component={RouterLink} to={deploymentsPath}>
            {t('wizard.created.toDeployments')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={dashboardPath}>
            {t('wizard.created.toDashboard')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
