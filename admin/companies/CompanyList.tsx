import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCompanyRow } from '../../src/domain/admin/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { CompanyFilters, companyFilter, NO_COMPANY_FILTERS, type CompanyFilterValues } from './CompanyFilters';

type CompanyRow = AdminCompanyRow & { id: string };

/** Admin area: every company, searched, sorted and filtered by the server (SPEC §2 admin routes). */
export function CompanyList() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<CompanyFilterValues>(NO_COMPANY_FILTERS);
  const filter = useMemo(() => companyFilter(filters), [filters]);
  const columns = useMemo<DataTableColumn<CompanyRow>[]>(() => {
    const f = (field: string) => t(`resources.companies.fields.${field}`);
    return [
      { id: 'name', header: f('name'), value: (c) => c.name, render: (c) => <RecordLink name="companies" id={c._id}>{c.name}</RecordLink> },
      { id: 'size', header: f('size'), value: (c) => (c.size ? t(`companySizes.${c.size}`) : '') },
      { id: 'members', header: f('members'), align: 'right', value: (c) => c.members },
      { id: 'servers', header: f('servers'), align: 'right', value: (c) => c.servers },
      { id: 'paidServers', header: f('paidServers'), align: 'right', sortable: false, dynamic: true, defaultSelected: true, value: (c) => c.paidServers },
      { id: 'planGroupName', header: f('planGroupName'), sortable: false, dynamic: true, defaultSelected: true, value: (c) => c.planGroupName ?? '' },
      { id: 'createdAt', header: f('createdAt'), value: (c) => formatDateTime(c.createdAt) },
      { id: '_id', header: f('_id'), dynamic: true, value: (c) => c._id },
    ];
  }, [t]);
  return <AdminList name="companies" columns={columns} filter={filter} filters={<CompanyFilters value={filters} onChange={setFilters} />} onClearFilters={() => setFilters(NO_COMPANY_FILTERS)} />;
}
