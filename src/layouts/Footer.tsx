import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Copyright with the current year (SPEC §2). */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ py: 3, px: 2, textAlign: 'center', borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Typography variant="body2" color="text.secondary">
        {t('product.copyright', { year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );
}
