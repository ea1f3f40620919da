import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** A table cell's content cut to a width with an ellipsis, the whole text in its tooltip: a long name never widens the table past the page. */
export function Clipped({ text, children, width = 220 }: { text: string; children?: ReactNode; width?: number }) {
  return (
    <Box component="span" title={text} sx={{ display: 'inline-block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}>
      {children ?? text}
    </Box>
  );
}
