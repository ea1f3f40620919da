import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useDelete, useNotify, useUpdate } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PlanGroupEditor as EditorData } from '../../src/domain/admin/schemas';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { decimalToCents } from '../../src/domain/money';
import { formatCents } from '../../src/ui/format';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';
import { CompanyPicker } from './CompanyPicker';

const RESOURCE = 'admin/plan-groups';

/** The editor's form: name, description, the catalogue's checkboxes and the group's companies. */
export function PlanGroupEditorForm({ id, data, onSaved }: { id: string; data: EditorData; onSaved: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const [name, setName] = useState(data.group.name);
  const [description, setDescription] = useState(data.group.description);
  const [planIds, setPlanIds] = useState<string[]>(() => data.plans.filter((p) => p.selected).map((p) => p._id));
  const [companies, setCompanies] = useState(data.companies);
  const [update, { isPending: saving }] = useUpdate();
  const [remove, { isPending: deleting }] = useDelete();
  const p = (key: string, options?: Record<string, unknown>) => t(`resources.plan-groups.${key}`, options);
  const toggle = (planId: string) => setPlanIds((ids) => (ids.includes(planId) ? ids.filter((x) => x !== planId) : [...ids, planId]));

  const save = () =>
    update(
      RESOURCE,
      { id, data: { name, description, planIds, companyIds: companies.map((c) => c._id) }, previousData: data.group },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => (notify(t('admin.saved'), { type: 'success' }), onSaved()),
        onError: (e) => notify((e as Error).message, { type: 'error' }),
      },
    );
  const deleteGroup = async () => {
    if (!(await confirm({ title: p('delete'), message: p('confirmDelete', { name: data.group.name }), type: 'danger' }))) return;
    remove(RESOURCE, { id, previousData: data.group }, { mutationMode: 'pessimistic', onSuccess: () => void navigate('/admin/plan-groups'), onError: (e) => notify((e as Error).message, { type: 'error' }) });
  };

  return (
    <>
      <RecordHeader name="plan-groups" title={`${p('editor')}: ${data.group.name}`} />
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack spacing={2} sx={{ maxWidth: 640 }}>
          <TextField size="small" label={p('fields.name')} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { maxLength: 64 } }} />
          <TextField size="small" label={p('fields.description')} value={description} onChange={(e) => setDescription(e.target.value)} slotProps={{ htmlInput: { maxLength: 500 } }} />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ mb: 3 }}>
        <Box sx={{ p: 2, pb: 1 }}>
          <Typography variant="h2" sx={{ fontSize: '1.125rem' }}>
            {p('catalogue')} <Chip size="small" label={p('selected', { count: planIds.length })} sx={{ ml: 1 }} />
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {p('catalogueHelp')}
          </Typography>
        </Box>
        <Box component="ul" aria-label={p('catalogue')} sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {data.plans.map((plan) => (
            <Box component="li" key={plan._id}>
              <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, cursor: 'pointer' }}>
                <Checkbox checked={planIds.includes(plan._id)} onChange={() => toggle(plan._id)} slotProps={{ input: { 'aria-label': `${plan.name} (${plan.code})` } }} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {plan.name}
                    {plan.status !== 'active' && <Chip size="small" label={plan.status} sx={{ ml: 1 }} />}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {`${plan.code} · ${(formatCents(decimalToCents(plan.monthlyPrice)) ? p('monthly', { amount: formatCents(decimalToCents(plan.monthlyPrice)) }) : t('resources.companies.free'))}`}
                  </Typography>
                </Box>
              </Box>
            </Box>
          ))}
        </Box>
      </Paper>
      <Box sx={{ mb: 2 }}>
        <CompanyPicker exclude={companies.map((c) => c._id)} onPick={(c) => setCompanies((list) => [...list, c])} />
      </Box>
      <SectionTable
        title={p('assigned')}
        rows={companies}
        getRowId={(c) => c._id}
        empty={p('noCompanies')}
        columns={[
          { header: t('resources.companies.fields.name'), cell: (c) => c.name },
          {
            header: '',
            cell: (c) => (
              <Button size="small" onClick={() => setCompanies((list) => list.filter((x) => x._id !== c._id))} aria-label={`${p('remove')} ${c.name}`}>
                {p('remove')}
              </Button>
            ),
          },
        ]}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" onClick={save} disabled={saving}>
          {t('admin.save')}
        </Button>
        <Button variant="outlined" color="error" onClick={() => void deleteGroup()} disabled={deleting}>
          {p('delete')}
        </Button>
      </Box>
    </>
  );
}
