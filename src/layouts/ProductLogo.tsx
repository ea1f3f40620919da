import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { clientConfig } from '../clientConfig';

/** `compact` drops the name on phones, where the main header needs the room for its navigation. */
export function ProductLogo({ inverse = false, compact = false }: { inverse?: boolean; compact?: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 28, height: 28 }} />
      <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.15rem', color: inverse ? 'common.white' : 'text.primary', display: compact ? { xs: 'none', sm: 'inline' } : undefined }}>
        {clientConfig.productName}
      </Typography>
    </Box>
  );
}
