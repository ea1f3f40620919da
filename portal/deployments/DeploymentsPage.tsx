import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useParams } from 'react-router';
import { useSelection } from '../../src/companySelection';
import '../../src/serversI18n';
import { failureMessage } from '../../src/ui/form/messages';
import { PageHeading } from '../../src/ui/PageHeading';
import '../wizard/i18n';
import { CreateServerButton } from './CreateServerButton';
import { DeploymentDetail } from './detail/DeploymentDetail';
import { DeploymentList } from './DeploymentList';
import { useScopePrefix } from './scope';
import { useCatalogueOnEnter } from './useCatalogueOnEnter';

/** Deployments (SPEC §2): the selected project's servers. */
function DeploymentsList({ scope }: { scope: string }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const onLoadError = useCallback((error: unknown) => setFailure(failureMessage(error, t)), [t]);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <PageHeading titleKey="titles.deployments" />
        <CreateServerButton />
      </Box>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <DeploymentList scope={scope} onLoadError={onLoadError} />
    </>
  );
}

function DetailRoute({ scope }: { scope: string }) {
  const { id = '' } = useParams();
  return <DeploymentDetail key={id} id={id} scope={scope} />;
}

/**
 * Deployments and deployments/{id} (SPEC §2), also in the project-scoped form. Configurables and
 * plans are loaded on entering either (SPEC §4).
 */
export default function DeploymentsPage() {
  const { companyId } = useSelection();
  const scope = useScopePrefix();
  useCatalogueOnEnter(companyId);
  return (
    <Routes>
      <Route index element={<DeploymentsList scope={scope} />} />
      <Route path=":id" element={<DetailRoute scope={scope} />} />
      <Route path="*" element={<DeploymentsList scope={scope} />} />
    </Routes>
  );
}
