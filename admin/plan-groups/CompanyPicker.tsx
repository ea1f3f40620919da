import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useGetList } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { AdminCompanyRow } from '../../src/domain/admin/schemas';
import { useDebouncedCallback } from '../../src/ui/useDebouncedCallback';
import { TIMINGS } from '../../src/domain/constants';

type Company = { _id: string; name: string };

/** Finds a company by name (server search, debounced like every remote select) to add to the group. */
export function CompanyPicker({ exclude, onPick }: { exclude: readonly string[]; onPick: (company: Company) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const search = useDebouncedCallback((text: string) => setQ(text.trim()), TIMINGS.searchDebounceMs);
  const { data = [], isPending } = useGetList<AdminCompanyRow & { id: string }>('admin/companies', { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: q ? { q } : {} });
  const options = data.filter((c) => !exclude.includes(c._id)).map((c) => ({ _id: c._id, name: c.name }));
  return (
    <Autocomplete
      options={options}
      loading={isPending}
      value={null}
      filterOptions={(o) => o}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a._id === b._id}
      onInputChange={(_e, text) => search.call(text)}
      onChange={(_e, picked) => picked && onPick(picked)}
      renderInput={(params) => <TextField {...params} size="small" label={t('resources.plan-groups.addCompany')} />}
      sx={{ maxWidth: 420 }}
    />
  );
}
