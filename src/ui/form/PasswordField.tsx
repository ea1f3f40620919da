import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch, type FieldValues } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from './FormTextField';
import { PasswordRulesPanel } from './PasswordRulesPanel';

type Props<T extends FieldValues> = Omit<FormTextFieldProps<T>, 'type' | 'endAdornment' | 'describedBy' | 'tipOnFocus' | 'onFocusChange'> & {
  /** Show the rules panel of a new password (off for the current password or a confirmation). */
  showRules?: boolean;
};

type RulesCheck = (value: string) => string[];

/**
 * The SPEC §5 rules check, loaded with the page rather than before it: it runs the shared
 * password schema, and zod is kept out of the front door's first-load JS. Null until it arrives.
 */
function usePasswordRules(wanted: boolean): RulesCheck | null {
  const [check, setCheck] = useState<RulesCheck | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void import('./passwordRules').then((module) => live && setCheck(() => module.failedPasswordRules));
    return () => {
      live = false;
    };
  }, [wanted]);
  return check;
}

/** A password field with a show/hide button and, for new passwords, the rules panel. */
export function PasswordField<T extends FieldValues>({ showRules = false, ...props }: Props<T>) {
  const { t } = useTranslation();
  const panelId = useId();
  const [visible, setVisible] = useState(false);
  const [focused, setFocused] = useState(false);
  const value = useWatch({ control: props.control, name: props.name }) as string | undefined;
  const check = usePasswordRules(showRules);
  const failed = focused && check ? check(value ?? '') : [];
  const panelOpen = failed.length > 0;
  return (
    <Box sx={{ position: 'relative' }}>
      <FormTextField
        {...props}
        type={visible ? 'text' : 'password'}
        tipOnFocus={!showRules}
        onFocusChange={setFocused}
        describedBy={panelOpen ? panelId : undefined}
        endAdornment={
          <IconButton
            edge="end"
            size="small"
            aria-label={t(visible ? 'auth.form.hidePassword' : 'auth.form.showPassword')}
            aria-pressed={visible}
            // Keeps focus (and the rules panel) on the field when the button is clicked.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
          </IconButton>
        }
      />
      {panelOpen && <PasswordRulesPanel id={panelId} failed={failed} />}
    </Box>
  );
}
