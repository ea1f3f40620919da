import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Upload from '@mui/icons-material/Upload';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, UPLOAD_IMAGE_TYPES } from '../../src/domain/constants';
import { initials } from '../../src/ui/misc/InitialsAvatar';
import '../../src/managementI18n';

/** What saving does with the logo: keep it, remove it, or upload a new file. */
export type LogoChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; file: File; url: string };

export const KEEP_LOGO: LogoChange = { kind: 'keep' };

const ACCEPTED: ReadonlySet<string> = new Set(UPLOAD_IMAGE_TYPES);

/** The i18n key of what is wrong with a chosen file, or null. The server checks again. */
export function logoProblem(file: { type: string; size: number }): string | null {
  if (!ACCEPTED.has(file.type)) return 'errors.FILE_TYPE';
  if (file.size > LIMITS.uploadMaxBytes) return 'errors.FILE_TOO_BIG';
  return null;
}

/** The logo change as CompanyUpdate.logo: a file, null to remove, undefined to keep. */
export const logoUpdate = (change: LogoChange): File | null | undefined => (change.kind === 'upload' ? change.file : change.kind === 'remove' ? null : undefined);

interface Props {
  companyName: string;
  /** URL of the saved logo. */
  current: string | null;
  change: LogoChange;
  onChange: (change: LogoChange) => void;
  disabled?: boolean;
}

/** Logo upload and removal; the change is applied when the company form is saved. */
export function LogoField({ companyName, current, change, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // A preview URL lives as long as its change: freed when replaced, saved or left.
  useEffect(() => () => {
    if (change.kind === 'upload') URL.revokeObjectURL(change.url);
  }, [change]);
  const shown = change.kind === 'upload' ? change.url : change.kind === 'remove' ? null : current;
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Cleared so choosing the same file again still fires a change.
    e.target.value = '';
    if (!file) return;
    const wrong = logoProblem(file);
    setProblem(wrong);
    if (!wrong) onChange({ kind: 'upload', file, url: URL.createObjectURL(file) });
  };
  const remove = () => {
    setProblem(null);
    onChange(current ? { kind: 'remove' } : KEEP_LOGO);
  };
  const size = `${LIMITS.uploadMaxBytes / (1024 * 1024)} MB`;
  const status = change.kind === 'upload' ? t('management.company.logoPending') : change.kind === 'remove' ? t('management.company.logoRemoving') : t('management.company.logoHint', { size });
  return (
    <Box role="group" aria-labelledby={`${id}-label`} sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Avatar
        variant="rounded"
        src={shown ?? undefined}
        alt={t('management.company.logoAlt', { name: companyName })}
        sx={{ width: 72, height: 72, fontSize: '1.5rem', fontWeight: 600, bgcolor: 'primary.main', '& img': { objectFit: 'contain', bgcolor: 'background.paper' } }}
      >
        {initials(companyName)}
      </Avatar>
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Typography id={`${id}-label`} sx={{ fontWeight: 600 }}>
          {t('management.company.logo')}
        </Typography>
        {!disabled && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
            <Button size="small" variant="outlined" startIcon={<Upload />} onClick={() => fileInput.current?.click()} aria-describedby={`${id}-status`}>
              {shown ? t('management.company.replaceLogo') : t('management.company.uploadLogo')}
            </Button>
            {/* Opened by the button above, so keyboard and screen readers meet one control. */}
            <input ref={fileInput} type="file" hidden accept={UPLOAD_IMAGE_TYPES.join(',')} onChange={choose} data-testid="logo-file" />
            {shown && (
              <Button size="small" color="error" startIcon={<DeleteOutline />} onClick={remove}>
                {t('management.company.removeLogo')}
              </Button>
            )}
          </Box>
        )}
        <FormHelperText id={`${id}-status`} error={Boolean(problem)} role={problem ? 'alert' : undefined}>
          {problem ? t(problem) : disabled ? null : status}
        </FormHelperText>
      </Box>
    </Box>
  );
}
