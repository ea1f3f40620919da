import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import type { BeaconDataProvider } from '../../dataProvider/dataProvider';
import { DomainPanel, type DomainCalls } from '../../src/ui/servers/DomainPanel';
import type { ActionAnswer } from '../../src/ui/servers/useServerAction';
import type { AdminDeploymentAction, AdminDeploymentDetail } from '../../src/domain/admin/deployments';
import type { ServerCertificate } from '../../src/domain/deployments/edge';

/** While the edge has no certificate for the address yet: it obtains one in seconds. */
const CERTIFICATE_POLL_MS = 3_000;

type Detail = AdminDeploymentDetail & { id: string };

/**
 * The customer's domain panel on the admin server page: the same fields, confirmations
 * and rules, its calls sent to the admin routes (`update-domain`, `verify-domain`).
 */
export function DomainSection({ deployment, onDone }: { deployment: Detail; onDone: () => void }) {
  const dataProvider = useDataProvider<BeaconDataProvider>();
  const calls = useMemo((): DomainCalls<ActionAnswer> => {
    const act = async (action: AdminDeploymentAction, data?: Record<string, unknown>) => {
      const { data: detail } = await dataProvider.recordAction<Detail>('admin/deployments', { id: deployment._id, action, data });
      return { task: detail.tasks[0] ?? null };
    };
    return {
      updateDomain: (body, removeSSL) => act('update-domain', { ...body, ...(removeSSL ? { removeSSL: true } : {}) }),
      verifyDomain: () => act('verify-domain'),
    };
  }, [dataProvider, deployment._id]);
  // The certificate the edge serves for the address: closely until one is issued, as on the customer's page.
  const domain = deployment.domain;
  const certificate = useQuery({
    queryKey: ['admin/deployments', deployment._id, 'certificate', domain ? `${domain.name} ${domain.ssl} ${domain.verified}` : ''],
    queryFn: async () => (await dataProvider.recordView<ServerCertificate>('admin/deployments', { id: deployment._id, view: 'certificate' })).data,
    refetchInterval: (q) => (q.state.data?.state === 'none' || q.state.data?.state === 'unreachable' ? CERTIFICATE_POLL_MS : false),
  });
  return (
    <Box sx={{ mb: 3 }}>
      <DomainPanel deployment={deployment} canEdit calls={calls} onAnswer={onDone} certificate={certificate.data} />
    </Box>
  );
}
