import Alert, { type AlertProps } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { failureMessage } from './form/messages';

/**
 * A read that failed, in words (the API's message, else the generic one), with a retry button
 * when `retry` is given; nothing while it has not failed.
 */
export function QueryFailure({ error, retry, sx }: { error: unknown; retry?: { label: string; onClick: () => void }; sx?: AlertProps['sx'] }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert
      severity="error"
      role="alert"
      sx={sx}
      action={
        retry && (
          <Button color="inherit" size="small" onClick={retry.onClick}>
            {retry.label}
          </Button>
        )
      }
    >
      {failureMessage(error, t)}
    </Alert>
  );
}
