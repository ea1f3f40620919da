import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { clientConfig } from '../clientConfig';

export function ProductLogo({ inverse = false }: { inverse?: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 28, height: 28 }} />
      <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.15rem', color: inverse ? 'common.white' : 'text.primary' }}>
        {clientConfig.productName}
      </Typography>
    </Box>
  );
}
