import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../src/clientConfig';

const MOUNT = '/analytics/';

/**
 * The way back from a server's dashboard to its page in the portal: the dashboard has
 * its own frame, with no portal navigation. None in the preview, which sits inside a portal page.
 */
export function BackToPortal({ basePath }: { basePath: string }) {
  const { t } = useTranslation();
  if (!basePath.startsWith(MOUNT)) return null;
  const deploymentId = basePath.slice(MOUNT.length);
  const label = t('analytics.backToPortal', { product: clientConfig.productName });
  return (
    // A plain link: the portal is another part of the app, outside the dashboard's router basename.
    // At the server's own address the portal is another origin.
    <Button href={`${clientConfig.portalUrl ?? ''}/#/deployments/${encodeURIComponent(deploymentId)}`} startIcon={<ArrowBack />} size="small" color="inherit" aria-label={label} sx={{ minWidth: 0, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}>
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        {label}
      </Box>
    </Button>
  );
}
