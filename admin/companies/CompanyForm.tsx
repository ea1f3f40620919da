import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useGetList, useNotify, useUpdate } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminCompanyUpdateSchema, type AdminCompanyDetail, type PlanGroupRow } from '../../src/domain/admin/schemas';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';

// The form keeps '' for "no group"; the API takes null.
const formSchema = adminCompanyUpdateSchema.extend({ planGroupId: z.string() });
type FormValues = z.infer<typeof formSchema>;

/** Edit a company's name and plan group (the same schema as PUT /admin/companies/{id}). */
export function CompanyForm({ company, onSaved }: { company: AdminCompanyDetail & { id: string }; onSaved: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { data: groups = [] } = useGetList<PlanGroupRow & { id: string }>('admin/plan-groups', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } });
  const [update, { isPending }] = useUpdate();
  const { control, handleSubmit } = useForm<FormValues>({ resolver: zodResolver(formSchema), values: { name: company.name, planGroupId: company.planGroupId ?? '' } });
  const save = handleSubmit((v) =>
    update(
      'admin/companies',
      { id: company._id, data: { name: v.name, planGroupId: v.planGroupId || null }, previousData: company },
      { mutationMode: 'pessimistic', onSuccess: () => (notify(t('admin.saved'), { type: 'success' }), onSaved()), onError: (e) => notify((e as Error).message, { type: 'error' }) },
    ),
  );
  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={(e) => void save(e)} sx={{ p: 2, mb: 3 }}>
      <Typography variant="h2" sx={{ fontSize: '1.125rem', mb: 2 }}>
        {t('resources.companies.edit')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <FormTextField control={control} name="name" label={t('resources.companies.fields.name')} maxLength={64} />
        <NativeSelectField
          control={control}
          name="planGroupId"
          label={t('resources.companies.fields.planGroupId')}
          placeholder={t('resources.companies.publicPlans')}
          emptyValue=""
          options={groups.map((g) => ({ value: g._id, label: g.name }))}
        />
      </Box>
      <Button type="submit" variant="contained" disabled={isPending} sx={{ mt: 2 }}>
        {t('admin.save')}
      </Button>
    </Paper>
  );
}
