import FormControl from '@mui/material/FormControl';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { memo, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FieldErrorIcon } from './FieldErrorIcon';
import { useTranslateMessage } from './messages';

export interface FormTextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  inputMode?: 'text' | 'email' | 'numeric';
  maxLength?: number;
  /** Rewrites what is typed, e.g. keeps digits only. */
  transform?: (raw: string) => string;
  /** Adornment after the warning icon, e.g. the show-password button. */
  endAdornment?: ReactNode;
  /** Extra aria-describedby ids, e.g. the password rules panel. */
  describedBy?: string;
  /** Show the error tooltip while focused (off when another panel explains the rules). */
  tipOnFocus?: boolean;
  onFocusChange?: (focused: boolean) => void;
  /** A text area of this many rows at least (e.g. the lines of an address). */
  minRows?: number;
}

function FormTextFieldBody<T extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
  disabled,
  inputMode,
  maxLength,
  transform,
  endAdornment,
  describedBy,
  tipOnFocus = true,
  onFocusChange,
  minRows,
}: FormTextFieldProps<T>) {
  const id = useId();
  const errorId = `${id}-error`;
  const translate = useTranslateMessage();
  const [focused, setFocused] = useState(false);
  const { field, fieldState } = useController({ control, name });
  const input = useRef<HTMLInputElement | null>(null);
  const fieldRef = field.ref;
  const inputRef = useCallback(
    (element: HTMLInputElement | null) => {
      fieldRef(element);
      input.current = element;
    },
    [fieldRef],
  );
  // Focused in the frame after the commit that shows the field, not in that commit (React's
  // autoFocus) or its effects, which often run in the same task: a focus there lays the whole new
  // page out inside that task, one long task on a phone.
  useEffect(() => {
    if (!autoFocus) return;
    const frame = requestAnimationFrame(() => input.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [autoFocus]);
  const message = fieldState.error ? translate(fieldState.error.message) : '';
  const focus = (next: boolean) => {
    setFocused(next);
    onFocusChange?.(next);
  };
  const adornment =
    message || endAdornment ? (
      <InputAdornment position="end">
        {message && <FieldErrorIcon message={message} id={errorId} fieldFocused={tipOnFocus && focused} />}
        {endAdornment}
      </InputAdornment>
    ) : undefined;
  // Built from FormControl + OutlinedInput rather than TextField: TextField also pulls in Select,
  // Menu and Popover, which the front door's size budget cannot afford.
  return (
    <FormControl fullWidth error={Boolean(message)} disabled={disabled} variant="outlined">
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={field.name}
        label={label}
        type={type}
        value={(field.value as string | undefined) ?? ''}
        onChange={(e) => field.onChange(transform ? transform(e.target.value) : e.target.value)}
        onFocus={() => focus(true)}
        onBlur={() => {
          field.onBlur();
          focus(false);
        }}
        inputRef={inputRef}
        autoComplete={autoComplete}
        endAdornment={adornment}
        {...(minRows ? { multiline: true, minRows } : {})}
        inputProps={{
          inputMode,
          maxLength,
          'aria-invalid': Boolean(message),
          'aria-describedby': [message ? errorId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined,
        }}
      />
    </FormControl>
  );
}

// Memoised: a page's form re-renders once inside its first commit (react-hook-form marks the form
// ready in a layout effect, a synchronous update); fields whose props did not change stay out of it.
/** A react-hook-form text field whose error is a warning icon with a tooltip (SPEC §5). */
export const FormTextField = memo(FormTextFieldBody) as typeof FormTextFieldBody;
