import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', px: 3, py: { xs: 8, md: 14 }, textAlign: 'center' }}>
      <Typography variant="overline" color="text.secondary">
        404
      </Typography>
      <Typography variant="h1" sx={{ mb: 2 }}>
        {t('pages.notFound.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {t('pages.notFound.body')}
      </Typography>
      <Button variant="contained" component={RouterLink} to="/">
        {t('pages.notFound.home')}
      </Button>
    </Box>
  );
}
