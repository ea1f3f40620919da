import Box from '@mui/material/Box';
import { PageHeading } from '../../src/ui/PageHeading';
import { CreateServerButton } from '../deployments/CreateServerButton';
import { usePaymentSuccessNotice } from './usePaymentSuccessNotice';

/** Dashboard (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function DashboardPage() {
  usePaymentSuccessNotice();
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
      <PageHeading titleKey="titles.dashboard" />
      <CreateServerButton />
    </Box>
  );
}
