import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { memo, type ReactNode, useId } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FieldErrorIcon } from './FieldErrorIcon';
import { useTranslateMessage } from './messages';

interface Props<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
}

function CheckboxFieldBody<T extends FieldValues>({ control, name, label }: Props<T>) {
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

// Memoised: a page's form re-renders once inside its first commit (react-hook-form marks the form
// ready in a layout effect, a synchronous update); fields whose props did not change stay out of it.
/** A react-hook-form checkbox (e.g. an agreement box) with the warning-icon error of SPEC §5. */
export const CheckboxField = memo(CheckboxFieldBody) as typeof CheckboxFieldBody;
