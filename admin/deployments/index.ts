import DnsIcon from '@mui/icons-material/Dns';
import { DeploymentList } from './DeploymentList';
import { DeploymentShow } from './DeploymentShow';

/** The admin servers resource: `/admin/deployments` and a server's page `/admin/deployments/{id}`. */
export default {
  list: DeploymentList,
  edit: DeploymentShow,
  icon: DnsIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
