import BusinessIcon from '@mui/icons-material/Business';
import { lazyView } from '../../src/lazyView';

const CompanyEdit = lazyView(() => import('./CompanyEdit'), 'CompanyEdit');
const CompanyList = lazyView(() => import('./CompanyList'), 'CompanyList');

/** The admin companies resource: `/admin/companies` and a company's page `/admin/companies/{id}`. */
export default {
  list: CompanyList,
  edit: CompanyEdit,
  icon: BusinessIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
