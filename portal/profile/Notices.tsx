import Alert, { type AlertColor } from '@mui/material/Alert';

/** What the last action on a settings section did: a notice (what changed) and a failure. */
export function Notices({ notice, failure, noticeSeverity = 'success' }: { notice: string | null; failure: string | null; noticeSeverity?: AlertColor }) {
  return (
    <>
      {notice && (
        <Alert severity={noticeSeverity} role="status">
          {notice}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
    </>
  );
}
