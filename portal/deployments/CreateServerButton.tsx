import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSelection } from '../../src/companySelection';
import '../wizard/i18n';

/** Opens the server wizard for the selected company and project (SPEC §2 server-builder). */
export function CreateServerButton() {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  const to = companyId && projectId ? `/c/${companyId}/p/${projectId}/server-builder/choose-plan` : '/server-builder/choose-plan';
  return (
    <Button variant="contained" startIcon={<Add />} component={RouterLink} to={to}>
      {t('wizard.createServer')}
    </Button>
  );
}
