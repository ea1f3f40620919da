import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';

export interface PlainTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field in the error colour; the field is marked invalid while it is set. */
  error?: string | null;
  maxLength?: number;
}

/**
 * An outlined text field that looks and reads like MUI's TextField, built from its parts:
 * TextField also pulls in Select, Menu, Popover and Modal, which the front door's size budget
 * cannot afford on pages that never show a select.
 */
export function PlainTextField({ label, value, onChange, error, maxLength }: PlainTextFieldProps) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  return (
    <FormControl fullWidth error={Boolean(error)} variant="outlined">
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        inputProps={{ maxLength, 'aria-describedby': error ? helperId : undefined }}
      />
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
}
