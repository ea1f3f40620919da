import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteProject, useProjects } from '../../dataProvider/projects/queries';
import { selection, useSelection } from '../../src/companySelection';
import type { CompanyDto } from '../../src/domain/companies/answers';
import type { ProjectDto } from '../../src/domain/projects/schemas';
import '../../src/serversI18n';
import { confirm, showMessage } from '../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../src/ui/QueryFailure';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type LocalTableSource } from '../../src/ui/table/DataTable';
import { showToast } from '../../src/ui/toast/toastStore';
import { ProjectForm } from './ProjectForm';
import '../../src/managementI18n';

const createdDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Management › Project (SPEC §2): the company's projects; admins create, rename and delete. */
export function ProjectSettings({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  const { projectId: selected } = useSelection();
  const canEdit = company.role === 'admin';
  const [renaming, setRenaming] = useState<ProjectDto | null>(null);
  const projects = useProjects(company._id);
  const rows = projects.data ?? null;
  const { refetch: reload } = projects;
  const { mutateAsync: deleteProject } = useDeleteProject(company._id);
  const { run } = useFormSubmit({ report: 'toast' });
  // The project switcher reads the same list.
  useEffect(() => {
    if (rows) selection.setProjects(company._id, rows);
  }, [rows, company._id]);

  const source = useMemo<LocalTableSource<ProjectDto>>(() => ({ kind: 'local', rows: rows ?? [] }), [rows]);

  const columns = useMemo<DataTableColumn<ProjectDto>[]>(() => {
    const remove = async (p: ProjectDto) => {
      if (p.servers > 0) {
        await showMessage({ type: 'danger', title: t('management.project.hasServersTitle', { name: p.name }), message: t('management.project.hasServers', { count: p.servers }) });
        return;
      }
      const ok = await confirm({
        type: 'danger',
        title: t('management.project.deleteTitle', { name: p.name }),
        message: t('management.project.deleteMessage', { company: company.name }),
        labels: { confirm: t('management.project.deleteConfirm') },
      });
      if (!ok) return;
      if (await run(() => deleteProject(p._id))) showToast({ text: t('management.project.deleted', { name: p.name }), variant: 'successful' });
    };
    const base: DataTableColumn<ProjectDto>[] = [
      {
        id: 'name',
        header: t('management.project.name'),
        value: (p) => p.name,
        render: (p) => (
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {p.name}
            {p._id === selected && <Chip size="small" variant="outlined" color="primary" label={t('management.project.current')} />}
          </Box>
        ),
      },
      { id: 'servers', header: t('management.project.servers'), value: (p) => p.servers, align: 'right' },
      { id: 'createdAt', header: t('management.project.createdAt'), value: (p) => new Date(p.createdAt), render: (p) => createdDate.format(new Date(p.createdAt)) },
    ];
    if (!canEdit) return base;
    return [
      ...base,
      {
        id: 'actions',
        header: t('management.project.actions'),
        sortable: false,
        exportable: false,
        align: 'right',
        value: () => '',
        render: (p) => (
          <Box sx={{ display: 'inline-flex', whiteSpace: 'nowrap' }}>
            <Tooltip title={t('management.project.rename', { name: p.name })}>
              <IconButton size="small" aria-label={t('management.project.rename', { name: p.name })} onClick={() => setRenaming(p)}>
                <Edit fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('management.project.delete', { name: p.name })}>
              <IconButton size="small" color="error" aria-label={t('management.project.delete', { name: p.name })} onClick={() => void remove(p)}>
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        ),
      },
    ];
  }, [t, canEdit, company.name, selected, run, deleteProject]);

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      {!canEdit && <Alert severity="info">{t('management.viewerNotice')}</Alert>}
      {canEdit && (
        <Paper variant="outlined" component="section" aria-labelledby="project-create-title" sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography id="project-create-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            {t('management.project.createTitle')}
          </Typography>
          <ProjectForm companyId={company._id} onDone={() => void reload()} />
        </Paper>
      )}
      <Box component="section" aria-labelledby="project-list-title" sx={{ minWidth: 0 }}>
        <Typography id="project-list-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          {t('management.project.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
          {t('management.project.intro', { company: company.name })}
        </Typography>
        <QueryFailure error={rows ? null : projects.error} sx={{ mb: 2 }} />
        {!rows && !projects.error && <Typography color="text.secondary">{t('management.project.loading')}</Typography>}
        {rows && (
          <DataTable
            id="management-projects"
            label={t('management.project.title')}
            columns={columns}
            source={source}
            getRowId={(p) => p._id}
            exportName="projects"
            emptyTitle={t('management.project.empty')}
            emptyMessage={t('management.project.emptyMessage')}
            canCreate={false}
            defaultSort={{ field: 'createdAt', order: 'ASC' }}
          />
        )}
      </Box>
      <Dialog open={Boolean(renaming)} onClose={() => setRenaming(null)} fullWidth maxWidth="sm" aria-labelledby="project-rename-title">
        <DialogTitle id="project-rename-title">{t('management.project.renameTitle')}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          {renaming && (
            <ProjectForm
              key={renaming._id}
              companyId={company._id}
              project={renaming}
              onCancel={() => setRenaming(null)}
              onDone={() => {
                setRenaming(null);
                void reload();
              }}
            />
          )}
        </DialogContent>
      </Dialog>
    </Box>
  );
}
