import BusinessIcon from '@mui/icons-material/Business';
import { CompanyEdit } from './CompanyEdit';
import { CompanyList } from './CompanyList';

/** The admin companies resource: `/admin/companies` and a company's page `/admin/companies/{id}`. */
export default {
  list: CompanyList,
  edit: CompanyEdit,
  icon: BusinessIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
