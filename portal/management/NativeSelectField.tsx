import TextField from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslateMessage } from '../../src/ui/form/messages';

export interface NativeSelectFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  options: readonly { value: string; label: string }[];
  /** The label of the empty choice; without it every value must be one of the options. */
  emptyLabel?: string;
  /** What the empty choice stores: undefined (left out) by default, '' where '' clears a value. */
  emptyValue?: '' | undefined;
  helperText?: string;
  disabled?: boolean;
}

/**
 * A react-hook-form select on the browser's own list: long lists (249 countries) scroll and jump
 * by typed letter, and phones show their native picker.
 */
export function NativeSelectField<T extends FieldValues>({ control, name, label, options, emptyLabel, emptyValue, helperText, disabled }: NativeSelectFieldProps<T>) {
  const translate = useTranslateMessage();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error ? translate(fieldState.error.message) : '';
  return (
    <TextField
      select
      fullWidth
      label={label}
      name={field.name}
      value={(field.value as string | null | undefined) ?? ''}
      onChange={(e) => field.onChange(e.target.value === '' ? emptyValue : e.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      disabled={disabled}
      error={Boolean(message)}
      helperText={message || helperText}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </TextField>
  );
}
