import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import { lazy, Suspense, useState } from 'react';
import { visuallyHidden } from './visuallyHidden';

// The tooltip (and its positioning engine) loads with the first field error, not with the page:
// the front door has a first-load budget.
const Tooltip = lazy(() => import('@mui/material/Tooltip'));

interface Props {
  /** The translated rule that failed. */
  message: string;
  /** Id of the hidden text the field points at with aria-describedby. */
  id: string;
  /** Also show the tooltip while the field has focus, for keyboard users. */
  fieldFocused?: boolean;
}

/** SPEC §5: a field error is a warning icon whose tooltip names the failed rule. */
export function FieldErrorIcon({ message, id, fieldFocused = false }: Props) {
  const [hover, setHover] = useState(false);
  const icon = <WarningAmber color="warning" fontSize="small" aria-hidden data-testid="field-error-icon" sx={{ cursor: 'help' }} />;
  return (
    <>
      <Suspense fallback={icon}>
        <Tooltip title={message} placement="top-end" arrow open={hover || fieldFocused} onOpen={() => setHover(true)} onClose={() => setHover(false)}>
          {icon}
        </Tooltip>
      </Suspense>
      <Box component="span" id={id} sx={visuallyHidden}>
        {message}
      </Box>
    </>
  );
}
