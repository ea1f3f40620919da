import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The h1 and the short introduction at the top of every account page. */
export function AuthHeading({ title, intro }: { title: string; intro?: ReactNode }) {
  return (
    <>
      <Typography variant="h1" sx={{ mb: intro ? 1 : 3 }}>
        {title}
      </Typography>
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {intro}
        </Typography>
      )}
    </>
  );
}
