import OpenInNew from '@mui/icons-material/OpenInNew';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deploymentsApi, type DeploymentPopulated } from '../../../dataProvider/deployments';
import { clientConfig } from '../../../src/clientConfig';
import { productSlug } from '../../../src/domain/fileNames';
import { handOverServerLink } from '../../../src/pages/redirectTarget';
import { useSession } from '../../../src/session';
import { failureMessage } from '../../../src/ui/form/messages';
import { showToast } from '../../../src/ui/toast/toastStore';

/**
 * Signs the user in to the server's own dashboard: the API signs a short-lived link
 * (GET /auth/{product}-server), which /redirect opens.
 */
export function OpenDashboardButton({ deployment: d }: { deployment: DeploymentPopulated }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = useSession().user?._id;
  const [pending, setPending] = useState(false);
  const open = async () => {
    if (!userId) return;
    setPending(true);
    try {
      const { url } = await deploymentsApi.serverSignIn(productSlug(clientConfig.productName), d._id, userId);
      handOverServerLink(url);
      navigate(`/redirect?${new URLSearchParams({ server_url: url }).toString()}`);
    } catch (error) {
      showToast({ text: failureMessage(error, t) || t('deployment.openFailed'), variant: 'destructive' });
      setPending(false);
    }
  };
  return (
    <Button variant="contained" startIcon={<OpenInNew />} disabled={d.status !== 'running' || !d.url} loading={pending} onClick={() => void open()}>
      {t('deployment.openDashboard')}
    </Button>
  );
}
