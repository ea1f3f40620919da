import OpenInNew from '@mui/icons-material/OpenInNew';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServerSignIn, type DeploymentPopulated } from '../../../dataProvider/deployments';
import { clientConfig } from '../../../src/clientConfig';
import { productSlug } from '../../../src/domain/fileNames';
import { handOverServerLink } from '../../../src/pages/redirectTarget';
import { useSession } from '../../../src/session';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';

/**
 * Signs the user in to the server's own dashboard: the API signs a short-lived link
 * (GET /auth/{product}-server), which /redirect opens.
 */
export function OpenDashboardButton({ deployment: d }: { deployment: DeploymentPopulated }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = useSession().user?._id;
  const signIn = useServerSignIn();
  const { run, submitting: pending } = useFormSubmit({ report: 'toast' });
  const open = async () => {
    if (!userId) return;
    await run(async () => {
      const { url } = await signIn.mutateAsync({ product: productSlug(clientConfig.productName), deploymentId: d._id, userId });
      handOverServerLink(url);
      navigate(`/redirect?${new URLSearchParams({ server_url: url }).toString()}`);
    });
  };
  return (
    <Button variant="contained" startIcon={<OpenInNew />} disabled={d.status !== 'running' || !d.url} loading={pending} onClick={() => void open()}>
      {t('deployment.openDashboard')}
    </Button>
  );
}
