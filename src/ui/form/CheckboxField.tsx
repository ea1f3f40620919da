import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useId, type ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FieldErrorIcon } from './FieldErrorIcon';
import { useTranslateMessage } from './messages';

interface Props<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
}

/** A react-hook-form checkbox (e.g. an agreement box) with the warning-icon error of SPEC §5. */
export function CheckboxField<T extends FieldValues>({ control, name, label }: Props<T>) {
  const errorId = `${useId()}-error`;
  const translate = useTranslateMessage();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error ? translate(fieldState.error.message) : '';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <FormControlLabel
        sx={{ mr: 0, color: message ? 'error.main' : undefined }}
        label={label}
        control={
          <Checkbox
            name={field.name}
            checked={field.value === true}
            onChange={(_, checked) => field.onChange(checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { ref: field.ref, 'aria-invalid': Boolean(message), 'aria-describedby': message ? errorId : undefined } }}
          />
        }
      />
      {message && <FieldErrorIcon message={message} id={errorId} />}
    </Box>
  );
}
