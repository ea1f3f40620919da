import AccountTree from '@mui/icons-material/AccountTree';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { EmptyView } from '../../src/ui/EmptyView';

/** Management › Project (SPEC §2); its settings arrive with their own issue. */
export function ProjectSettings() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined">
      <EmptyView icon={<AccountTree />} title={t('management.project.title')} message={t('management.project.message')} canCreate={false} />
    </Paper>
  );
}
