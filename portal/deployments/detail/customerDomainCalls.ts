import { deploymentsApi, type DeploymentActionAnswer } from '../../../dataProvider/deployments';
import type { DomainCalls } from '../../../src/ui/servers/DomainPanel';

/** The customer's own domain calls, for the server's page (the admin page passes its admin routes). */
export const customerDomainCalls = (id: string): DomainCalls<DeploymentActionAnswer> => ({
  updateDomain: (body, removeSSL) => deploymentsApi.updateDomain(id, body, removeSSL),
  verifyDomain: () => deploymentsApi.verifyDomain(id),
});
