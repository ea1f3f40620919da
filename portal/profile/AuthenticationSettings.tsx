import { zodResolver } from '@hookform/resolvers/zod';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TwoFactorSetup } from '../../dataProvider/auth';
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorInitiate } from '../../dataProvider/auth/queries';
import { LIMITS } from '../../src/domain/constants';
import { twoFactorCodeSchema, twoFactorDisableSchema, type CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { copyText, productPrefix, saveBlob } from './files';
import { ConfirmIdentity } from './ConfirmIdentity';
import { Notices } from './Notices';
import PasskeySettings from './PasskeySettings';
import { SettingsSection } from './SettingsSection';
import { SubmitOrCancel } from './SubmitOrCancel';
import { useProtectedAction } from './useProtectedAction';
import '../../src/profileI18n';

type Setup = TwoFactorSetup;

/** Where the setup stands: not started, confirming identity, scanning the QR code, or showing the recovery codes once. */
type Phase = { step: 'idle' } | { step: 'confirm' } | { step: 'setup'; setup: Setup } | { step: 'codes'; codes: string[] };

const digitsOnly = (raw: string) => raw.replace(/\D/g, '').slice(0, LIMITS.twoFactorCodeLength);
/** A recovery code is 11 characters (xxxxx-xxxxx); a 6-digit code is shorter. */
const RECOVERY_CODE_LENGTH = 11;
const COPIED_MS = 2000;

/** A copy button that says 'Copied' for a moment after it worked. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copyText(text).then(setCopied)} aria-live="polite">
      {copied ? t('profile.twoFactor.copied') : label}
    </Button>
  );
}

function SetupForm({ setup, onEnabled, onCancel }: { setup: Setup; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm({ resolver: zodResolver(twoFactorCodeSchema), defaultValues: { code: '' } });
  // Shown above the field too: a wrong code or password is the usual mistake here and must be obvious.
  const { run, failure } = useFormSubmit({ fields: ['code'], setError, alwaysReport: true, intercept: session.handleError });
  const enable = useTwoFactorEnable();
  const submit = handleSubmit(({ code }) =>
    run(async () => {
      const { recoveryCodes } = await enable.mutateAsync(code);
      // SPEC §4: enabling two-factor refreshes the current user.
      await session.refresh('manual');
      onEnabled(recoveryCodes);
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2.5}>
        <Typography>{t('profile.twoFactor.scan')}</Typography>
        <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <Box
            component="img"
            src={setup.qrImage}
            alt={t('profile.twoFactor.qrAlt')}
            width={200}
            height={200}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'common.white', flexShrink: 0, mx: { xs: 'auto', sm: 0 } }}
          />
          <Stack spacing={1.5} sx={{ flex: '1 1 240px', minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">
              {t('profile.twoFactor.manual')}
            </Typography>
            <Typography
              component="code"
              aria-label={t('profile.twoFactor.secret')}
              sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.95rem', bgcolor: 'action.hover', borderRadius: 1, px: 1.5, py: 1, wordBreak: 'break-all', letterSpacing: '0.05em' }}
            >
              {setup.secret}
            </Typography>
            <Box>
              <CopyButton text={setup.secret} label={t('profile.twoFactor.copySecret')} />
            </Box>
          </Stack>
        </Box>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Box sx={{ maxWidth: 320 }}>
          <FormTextField
            control={control}
            name="code"
            label={t('profile.twoFactor.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={LIMITS.twoFactorCodeLength}
            transform={digitsOnly}
            autoFocus
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t('profile.twoFactor.codeHint')}
          </Typography>
        </Box>
        <SubmitOrCancel submitLabel={t('profile.twoFactor.enable')} cancelLabel={t('profile.twoFactor.cancel')} submitting={formState.isSubmitting} onCancel={onCancel} />
      </Stack>
    </Box>
  );
}

function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const download = () => {
    const text = `${t('profile.twoFactor.recoveryFile', { email })}\n\n${codes.join('\n')}\n`;
    saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), `${productPrefix()}-recovery-codes.txt`);
  };
  return (
    <Stack spacing={2.5}>
      <Alert severity="success" role="status">
        {t('profile.twoFactor.enabled')}
      </Alert>
      <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 700 }}>
        {t('profile.twoFactor.recoveryHeading')}
      </Typography>
      <Alert severity="warning" role="alert">
        {t('profile.twoFactor.recoveryNote')}
      </Alert>
      <Box
        component="ol"
        aria-label={t('profile.twoFactor.recoveryHeading')}
        sx={{
          listStyle: 'none',
          m: 0,
          p: 2,
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(2, max-content)' },
          columnGap: 4,
          rowGap: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: '1rem',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <CopyButton text={codes.join('\n')} label={t('profile.twoFactor.copyCodes')} />
        <Button variant="outlined" startIcon={<Download />} onClick={download}>
          {t('profile.twoFactor.downloadCodes')}
        </Button>
      </Box>
      <Box>
        <Button variant="contained" onClick={onDone}>
          {t('profile.twoFactor.done')}
        </Button>
      </Box>
    </Stack>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm({ resolver: zodResolver(twoFactorDisableSchema), defaultValues: { code: '' } });
  // Shown above the field too: a wrong code or password is the usual mistake here and must be obvious.
  const { run, failure } = useFormSubmit({ fields: ['code'], setError, alwaysReport: true, intercept: session.handleError });
  const disable = useTwoFactorDisable();
  const submit = handleSubmit(({ code }) =>
    run(async () => {
      await disable.mutateAsync(code);
      // SPEC §4: disabling two-factor refreshes the current user.
      await session.refresh('manual');
      onDisabled();
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Alert severity="success" role="status">
          {t('profile.twoFactor.enabled')}
        </Alert>
        <Typography color="text.secondary">{t('profile.twoFactor.disableIntro')}</Typography>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Box sx={{ maxWidth: 320 }}>
          <FormTextField control={control} name="code" label={t('profile.twoFactor.disableCode')} autoComplete="one-time-code" maxLength={RECOVERY_CODE_LENGTH} />
        </Box>
        <Box>
          <Button type="submit" variant="outlined" color="error" loading={formState.isSubmitting}>
            {t('profile.twoFactor.disable')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** /profile/authentication (SPEC §2): two-factor sign-in with an authenticator app, and passkeys. */
export default function AuthenticationSettings({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const action = useProtectedAction(() => setPhase({ step: 'confirm' }));
  const initiate = useTwoFactorInitiate();
  const start = () => void action.run(async () => setPhase({ step: 'setup', setup: await initiate.mutateAsync(null) }), start);

  // The codes stay on screen until dismissed, even though the refreshed user already says 'on'.
  const on = user.mfaEnabled || phase.step === 'codes';
  let body;
  if (phase.step === 'codes') {
    body = <RecoveryCodes codes={phase.codes} email={user.email} onDone={() => setPhase({ step: 'idle' })} />;
  } else if (phase.step === 'confirm') {
    body = <ConfirmIdentity user={user} onConfirmed={start} onCancel={() => setPhase({ step: 'idle' })} />;
  } else if (phase.step === 'setup') {
    body = <SetupForm setup={phase.setup} onEnabled={(codes) => setPhase({ step: 'codes', codes })} onCancel={() => setPhase({ step: 'idle' })} />;
  } else if (user.mfaEnabled) {
    body = <DisableForm onDisabled={() => action.setNotice(t('profile.twoFactor.disabled'))} />;
  } else {
    body = (
      <Stack spacing={2}>
        <Notices notice={action.notice} failure={action.failure} noticeSeverity="info" />
        <Box>
          <Button variant="contained" onClick={start} loading={action.busy}>
            {t('profile.twoFactor.start')}
          </Button>
        </Box>
      </Stack>
    );
  }
  return (
    <Stack spacing={3}>
      <SettingsSection
        title={t('profile.twoFactor.heading')}
        intro={t('profile.twoFactor.intro')}
        aside={<Chip size="small" label={t(on ? 'profile.twoFactor.on' : 'profile.twoFactor.off')} color={on ? 'success' : 'default'} />}
      >
        {body}
      </SettingsSection>
      <PasskeySettings user={user} />
    </Stack>
  );
}
