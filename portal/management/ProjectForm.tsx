import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useCreateProject, useRenameProject } from '../../dataProvider/projects/queries';
import { projectBodySchema, type ProjectDto } from '../../src/domain/projects/schemas';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { showToast } from '../../src/ui/toast/toastStore';
import '../../src/managementI18n';

type Form = z.input<typeof projectBodySchema>;

interface Props {
  companyId: string;
  /** The project to rename; a new one is created when absent. */
  project?: ProjectDto;
  onDone: (project: ProjectDto) => void;
  onCancel?: () => void;
}

/** The name form of a project: creates one, or renames the given one. */
export function ProjectForm({ companyId, project, onDone, onCancel }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, setError, formState } = useForm<Form, unknown, z.output<typeof projectBodySchema>>({
    resolver: zodResolver(projectBodySchema),
    mode: 'onTouched',
    defaultValues: { name: project?.name ?? '' },
  });
  const { run, failure } = useFormSubmit({ fields: ['name'], setError });
  const create = useCreateProject(companyId);
  const rename = useRenameProject(companyId);
  const submit = handleSubmit(async (body) => {
    await run(async () => {
      const saved = project ? await rename.mutateAsync({ projectId: project._id, body }) : await create.mutateAsync(body);
      if (!project) reset({ name: '' });
      showToast({ text: t(project ? 'management.project.renamed' : 'management.project.created', { name: saved.name }), variant: 'successful' });
      onDone(saved);
    });
  });
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t(project ? 'management.project.renameTitle' : 'management.project.createTitle')}>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) auto' }, alignItems: 'start' }}>
        <FormTextField control={control} name="name" label={t('management.project.newName')} autoComplete="off" autoFocus={Boolean(project)} maxLength={64} />
        <Box sx={{ display: 'flex', gap: 1 }}>
          {onCancel && (
            <Button onClick={onCancel} size="large" sx={{ height: 56 }}>
              {t('management.project.cancel')}
            </Button>
          )}
          <Button type="submit" variant="contained" size="large" startIcon={project ? undefined : <Add />} loading={formState.isSubmitting} sx={{ height: 56, whiteSpace: 'nowrap' }}>
            {t(project ? 'management.project.renameSave' : 'management.project.create')}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
