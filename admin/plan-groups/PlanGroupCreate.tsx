import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useCreate, useNotify } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { planGroupCreateSchema, type PlanGroupDetail } from '../../src/domain/admin/schemas';
import { FormTextField } from '../../src/ui/form/FormTextField';

type FormValues = z.input<typeof planGroupCreateSchema>;

/** 'New plan group': a name and a description, then straight to its editor to choose plans. */
export function PlanGroupCreate() {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [create, { isPending }] = useCreate<PlanGroupDetail & { id: string }>();
  const { control, handleSubmit, reset } = useForm<FormValues>({ resolver: zodResolver(planGroupCreateSchema), defaultValues: { name: '', description: '' } });
  const save = handleSubmit((data) =>
    create(
      'admin/plan-groups',
      { data },
      {
        onSuccess: (group) => {
          setOpen(false);
          reset();
          void navigate(`/admin/plan-groups/${group._id}/editor`);
        },
        onError: (e) => notify((e as Error).message, { type: 'error' }),
      },
    ),
  );
  return (
    <>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen(true)}>
        {t('resources.plan-groups.create')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <form noValidate onSubmit={(e) => void save(e)}>
          <DialogTitle>{t('resources.plan-groups.create')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <FormTextField control={control} name="name" label={t('resources.plan-groups.fields.name')} maxLength={64} autoFocus />
              <FormTextField control={control} name="description" label={t('resources.plan-groups.fields.description')} maxLength={500} />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>{t('admin.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={isPending}>
              {t('admin.save')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
