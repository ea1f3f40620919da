import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FieldErrorIcon } from './FieldErrorIcon';
import { useTranslateMessage } from './messages';

export interface NativeSelectOption {
  value: string;
  /** Already translated. */
  label: string;
}

interface Props<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: readonly NativeSelectOption[];
  /** The empty first choice, e.g. 'Choose…'; without it every value must be one of the options. */
  placeholder?: string;
  /** What the empty choice stores: undefined (left out) by default, '' where '' clears a value. */
  emptyValue?: '' | undefined;
  autoComplete?: string;
  /** Shown under the field while it has no error. */
  helperText?: string;
  disabled?: boolean;
}

/**
 * A react-hook-form select that matches FormTextField: outlined, with the warning-icon error of
 * SPEC §5. Native, because phones show their own picker and the front door cannot afford MUI's
 * Select, Menu and Popover.
 */
export function NativeSelectField<T extends FieldValues>({ control, name, label, options, placeholder, emptyValue, autoComplete, helperText, disabled }: Props<T>) {
  const id = useId();
  const errorId = `${id}-error`;
  const helperId = `${id}-helper`;
  const translate = useTranslateMessage();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error ? translate(fieldState.error.message) : '';
  return (
    <FormControl fullWidth error={Boolean(message)} disabled={disabled} variant="outlined">
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        value={(field.value as string | null | undefined) ?? ''}
        onChange={(e) => field.onChange(e.target.value === '' ? emptyValue : e.target.value)}
        onBlur={field.onBlur}
        inputRef={field.ref}
        input={
          <OutlinedInput
            label={label}
            notched
            // Left of the select's own arrow, which sits at the right edge.
            endAdornment={
              message ? (
                <InputAdornment position="end" sx={{ mr: 2 }}>
                  <FieldErrorIcon message={message} id={errorId} />
                </InputAdornment>
              ) : undefined
            }
          />
        }
        inputProps={{
          id,
          name: field.name,
          autoComplete,
          'aria-invalid': Boolean(message),
          'aria-describedby': message ? errorId : helperText ? helperId : undefined,
        }}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
      {helperText && !message && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
