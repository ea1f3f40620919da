import Box from '@mui/material/Box';
import { PageHeading } from '../../src/ui/PageHeading';
import { CreateServerButton } from '../deployments/CreateServerButton';

/** Dashboard (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function DashboardPage() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
      <PageHeading titleKey="titles.dashboard" />
      <CreateServerButton />
    </Box>
  );
}
