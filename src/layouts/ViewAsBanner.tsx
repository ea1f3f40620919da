import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminMethods } from '../../dataProvider/dataProvider';
import { session, useSession } from '../session';

/**
 * Shown on every page while a platform admin views the product as a company's admin: it says the
 * view is read-only and ends it (back to the company's admin page).
 */
export function ViewAsBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [ending, setEnding] = useState(false);
  const view = user?.viewAs;
  if (!user || !view) return null;
  const end = async () => {
    setEnding(true);
    try {
      await adminMethods.endViewAs();
      await session.refresh('manual');
      await navigate(`/admin/companies/${view.companyId}`);
    } finally {
      setEnding(false);
    }
  };
  return (
    <Alert
      severity="warning"
      variant="filled"
      sx={{ borderRadius: 0, alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" variant="outlined" disabled={ending} onClick={() => void end()}>
          {t('viewAs.end')}
        </Button>
      }
    >
      {t('viewAs.banner', { email: user.email })}
    </Alert>
  );
}
