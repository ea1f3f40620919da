import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';

/**
 * A value shown in a form but not edited there (e.g. the sign-in email), styled like FormTextField
 * so it lines up with the fields around it; still selectable and read by screen readers.
 */
export function ReadOnlyField({ label, value, hint, type = 'text' }: { label: string; value: string; hint?: string; type?: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <FormControl fullWidth variant="outlined">
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        notched
        type={type}
        value={value}
        readOnly
        inputProps={{ 'aria-readonly': true, 'aria-describedby': hint ? hintId : undefined }}
        sx={{ bgcolor: 'action.hover' }}
      />
      {hint && <FormHelperText id={hintId}>{hint}</FormHelperText>}
    </FormControl>
  );
}
