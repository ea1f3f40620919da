import { zodResolver } from '@hookform/resolvers/zod';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useInvite } from '../../dataProvider/companies/queries';
import { COMPANY_ROLES, invitationSchema } from '../../src/domain/companies/schemas';
import { type CompanyDto } from '../../src/domain/companies/answers';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import '../../src/managementI18n';

type InvitationForm = z.input<typeof invitationSchema>;

/** Invites a teammate by mail with a role (SPEC §6: team invites choose a role). */
export function InviteForm({ company, onInvited }: { company: CompanyDto; onInvited: () => void }) {
  const { t } = useTranslation();
  const roles = useMemo(() => COMPANY_ROLES.map((value) => ({ value, label: t(`management.roles.${value}`) })), [t]);
  const { control, handleSubmit, reset, setError, formState } = useForm<InvitationForm, unknown, z.output<typeof invitationSchema>>({
    resolver: zodResolver(invitationSchema),
    mode: 'onTouched',
    defaultValues: { email: '', role: 'viewer' },
  });
  const { run, failure } = useFormSubmit({ fields: ['email', 'role'], setError });
  const invite = useInvite(company._id);
  const submit = handleSubmit(async (body) => {
    await run(async () => {
      await invite.mutateAsync(body);
      // The role stays: people are often invited in batches with the same role.
      reset({ email: '', role: body.role });
      showToast({ text: t('management.team.invited', { email: body.email }), variant: 'successful' });
      onInvited();
    });
  });
  return (
    <Paper variant="outlined" component="section" aria-labelledby="invite-title" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="invite-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
        {t('management.team.inviteTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        {t('management.team.inviteIntro', { company: company.name })}
      </Typography>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 200px auto' }, alignItems: 'start' }}>
        <FormTextField control={control} name="email" label={t('management.team.email')} type="email" inputMode="email" autoComplete="off" />
        <NativeSelectField control={control} name="role" label={t('management.team.role')} options={roles} />
        <Button type="submit" variant="contained" size="large" startIcon={<Send />} loading={formState.isSubmitting} sx={{ height: 56, whiteSpace: 'nowrap' }}>
          {t('management.team.invite')}
        </Button>
      </Box>
    </Paper>
  );
}
