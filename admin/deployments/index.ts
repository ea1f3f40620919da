import DnsIcon from '@mui/icons-material/Dns';
import { lazyView } from '../../src/lazyView';

const DeploymentList = lazyView(() => import('./DeploymentList'), 'DeploymentList');
const DeploymentShow = lazyView(() => import('./DeploymentShow'), 'DeploymentShow');

/** The admin servers resource: `/admin/deployments` and a server's page `/admin/deployments/{id}`. */
export default {
  list: DeploymentList,
  edit: DeploymentShow,
  icon: DnsIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
