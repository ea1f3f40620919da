import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { type ComponentType, memo, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch, type FieldValues } from 'react-hook-form';
import { FormTextField, type FormTextFieldProps } from './FormTextField';

type Props<T extends FieldValues> = Omit<FormTextFieldProps<T>, 'type' | 'endAdornment' | 'describedBy' | 'tipOnFocus' | 'onFocusChange'> & {
  /** Show the rules panel of a new password (off for the current password or a confirmation). */
  showRules?: boolean;
};

interface Rules {
  check: (value: string) => string[];
  Panel: ComponentType<{ id: string; failed: string[] }>;
}

// Memoised: a page's form re-renders once inside its first commit (react-hook-form marks the form
// ready in a layout effect, a synchronous update); fields whose props did not change stay out of it.
/**
 * The SPEC §5 rules check and its panel, loaded with the page rather than before it: the check
 * runs the shared password schema (zod stays out of the front door's first-load JS), and the
 * panel's list parts are not needed by a sign-in. Null until they arrive.
 */
function usePasswordRules(wanted: boolean): Rules | null {
  const [rules, setRules] = useState<Rules | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    // Asked for from a timer: a page's first effects often run inside its first commit's task
    // (see the memo below), and starting these loads there made that long task on a phone longer.
    const timer = setTimeout(() => {
      void Promise.all([import('./passwordRules'), import('./PasswordRulesPanel')]).then(([check, panel]) => {
        if (live) setRules({ check: check.failedPasswordRules, Panel: panel.PasswordRulesPanel });
      });
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [wanted]);
  return rules;
}

function PasswordFieldBody<T extends FieldValues>({ showRules = false, ...props }: Props<T>) {
  const { t } = useTranslation();
  const panelId = useId();
  const [visible, setVisible] = useState(false);
  const [focused, setFocused] = useState(false);
  const value = useWatch({ control: props.control, name: props.name }) as string | undefined;
  const rules = usePasswordRules(showRules);
  const failed = focused && rules ? rules.check(value ?? '') : [];
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
      {panelOpen && rules && <rules.Panel id={panelId} failed={failed} />}
    </Box>
  );
}

/** A password field with a show/hide button and, for new passwords, the rules panel. */
export const PasswordField = memo(PasswordFieldBody) as typeof PasswordFieldBody;
