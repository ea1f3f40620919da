import { useServerActionMutation, type DeploymentActionAnswer } from '../../../dataProvider/deployments';
import type { DomainCalls } from '../../../src/ui/servers/DomainPanel';

/** The customer's own domain calls, for the server's page (the admin page passes its admin routes). */
export function useCustomerDomainCalls(id: string): DomainCalls<DeploymentActionAnswer> {
  const { mutateAsync } = useServerActionMutation(id);
  return {
    updateDomain: (body, removeSSL) => mutateAsync({ action: 'updateDomain', body, removeSSL }),
    verifyDomain: () => mutateAsync({ action: 'verifyDomain' }),
  };
}
