import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../src/useDocumentTitle';

/** A dashboard screen's h1 (also the document title) with its actions on the right. */
export function ScreenHeading({ titleKey, children }: { titleKey: string; children?: ReactNode }) {
  const { t } = useTranslation();
  useDocumentTitle(titleKey);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 3 }}>
      <Typography variant="h1" sx={{ flex: 1, minWidth: 200 }}>
        {t(titleKey)}
      </Typography>
      {children}
    </Box>
  );
}
