import { zodResolver } from '@hookform/resolvers/zod';
import Key from '@mui/icons-material/Key';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { usePasskeyOptions, usePasskeys, useRegisterPasskey, useRemovePasskey } from '../../dataProvider/passkeys/queries';
import type { PasskeyOptions } from '../../dataProvider/passkeys';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { passkeyNameSchema, type PasskeyDto } from '../../src/domain/auth/passkeys';
import { session } from '../../src/session';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { createPasskey, passkeyDismissed, passkeysSupported } from '../auth/webauthn';
import { ConfirmIdentity } from './ConfirmIdentity';
import { Notices } from './Notices';
import { SettingsSection } from './SettingsSection';
import { SubmitOrCancel } from './SubmitOrCancel';
import { useProtectedAction } from './useProtectedAction';
import '../../src/profileI18n';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const nameForm = z.object({ name: passkeyNameSchema });

/** What the section shows below the list: nothing, the name form (with its ceremony's options), or the identity check before `then`. */
type Phase = { step: 'idle' } | { step: 'name'; options: PasskeyOptions } | { step: 'confirm'; then: () => void };

/** Why the browser made no passkey, in words; null when the user simply closed its dialog. */
function creationFailure(error: unknown, t: (key: string) => string): string {
  if (passkeyDismissed(error)) return t('profile.passkeys.dismissed');
  if (error instanceof Error && (error.name === 'InvalidStateError' || /PREVIOUSLY_REGISTERED/.test(String((error as { code?: unknown }).code)))) return t('profile.passkeys.alreadyRegistered');
  return t('profile.passkeys.failed');
}

/** Names the passkey, then asks the browser for it: the options came with the click that opened the form, so the browser's prompt follows this click at once. */
function NameForm({ options, onCreated, onCancel }: { options: PasskeyOptions; onCreated: (passkey: PasskeyDto) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm({ resolver: zodResolver(nameForm), defaultValues: { name: t('profile.passkeys.defaultName') } });
  const { run, failure, setFailure } = useFormSubmit({ fields: ['name'], setError, intercept: session.handleError });
  const register = useRegisterPasskey();
  const submit = handleSubmit(({ name }) =>
    run(async () => {
      let response: unknown;
      try {
        response = await createPasskey(options);
      } catch (error) {
        // The browser's refusal is no server error: said in words, nothing sent.
        setFailure(creationFailure(error, t));
        return;
      }
      onCreated(await register.mutateAsync({ name, response }));
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Box sx={{ maxWidth: 360 }}>
          <FormTextField control={control} name="name" label={t('profile.passkeys.name')} autoComplete="off" maxLength={64} autoFocus />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t('profile.passkeys.nameHint')}
          </Typography>
        </Box>
        <SubmitOrCancel submitLabel={t('profile.passkeys.create')} cancelLabel={t('profile.passkeys.cancel')} submitting={formState.isSubmitting} onCancel={onCancel} />
      </Stack>
    </Box>
  );
}

function PasskeyRow({ passkey, onRemove, removing }: { passkey: PasskeyDto; onRemove: () => void; removing: boolean }) {
  const { t } = useTranslation();
  const lastUsed = passkey.lastUsedAt ? t('profile.passkeys.lastUsed', { date: day.format(new Date(passkey.lastUsedAt)) }) : t('profile.passkeys.neverUsed');
  return (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.5, borderTop: 1, borderColor: 'divider', flexWrap: 'wrap' }}>
      <Key color="action" aria-hidden />
      <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{passkey.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('profile.passkeys.created', { date: day.format(new Date(passkey.createdAt)) })} · {lastUsed}
        </Typography>
      </Box>
      <Button variant="outlined" color="error" size="small" onClick={onRemove} loading={removing} aria-label={t('profile.passkeys.removeLabel', { name: passkey.name })}>
        {t('profile.passkeys.remove')}
      </Button>
    </Box>
  );
}

/** Profile › Authentication: the user's passkeys, added after a fresh proof of identity, named and removable. */
export default function PasskeySettings({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const list = usePasskeys(user._id);
  const passkeys = list.data ?? null;
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const protectedAction = useProtectedAction((then) => setPhase({ step: 'confirm', then }));
  const [removing, setRemoving] = useState<string | null>(null);
  const registrationOptions = usePasskeyOptions();
  const removePasskey = useRemovePasskey(user._id);
  // Profile pages are never prerendered: the browser can be asked at render.
  const supported = passkeysSupported();

  const start = () => void protectedAction.run(async () => setPhase({ step: 'name', options: await registrationOptions.mutateAsync(null) }), start);

  const remove = async (passkey: PasskeyDto) => {
    protectedAction.clear();
    const ok = await confirm({ type: 'danger', title: t('profile.passkeys.confirm'), message: t('profile.passkeys.confirmRemove', { name: passkey.name }), labels: { confirm: t('profile.passkeys.confirm'), cancel: t('profile.passkeys.cancel') } });
    if (!ok) return;
    setRemoving(passkey._id);
    await protectedAction.run(
      async () => {
        await removePasskey.mutateAsync(passkey._id);
        protectedAction.setNotice(t('profile.passkeys.removed', { name: passkey.name }));
      },
      () => void remove(passkey),
    );
    setRemoving(null);
  };

  let action;
  if (phase.step === 'confirm') {
    const { then } = phase;
    action = (
      <ConfirmIdentity
        user={user}
        onConfirmed={() => {
          setPhase({ step: 'idle' });
          then();
        }}
        onCancel={() => setPhase({ step: 'idle' })}
      />
    );
  } else if (phase.step === 'name') {
    action = (
      <NameForm
        options={phase.options}
        onCreated={(created) => {
          setPhase({ step: 'idle' });
          protectedAction.setNotice(t('profile.passkeys.added', { name: created.name }));
          void list.refetch();
        }}
        onCancel={() => setPhase({ step: 'idle' })}
      />
    );
  } else {
    action = supported ? (
      <Box>
        <Button variant="contained" onClick={start} loading={protectedAction.busy && removing === null}>
          {t('profile.passkeys.add')}
        </Button>
      </Box>
    ) : (
      <Alert severity="info" role="note">
        {t('profile.passkeys.unsupported')}
      </Alert>
    );
  }

  return (
    <SettingsSection title={t('profile.passkeys.heading')} intro={t('profile.passkeys.intro')} aside={passkeys && passkeys.length > 0 ? <Chip size="small" color="success" label={String(passkeys.length)} /> : undefined}>
      <Stack spacing={2}>
        <Notices notice={protectedAction.notice} failure={protectedAction.failure} />
        {list.error && !passkeys && (
          <Alert severity="error" role="alert">
            {t('profile.passkeys.loadFailed')}
          </Alert>
        )}
        {passkeys &&
          (passkeys.length === 0 ? (
            <Typography color="text.secondary">{t('profile.passkeys.none')}</Typography>
          ) : (
            <Box component="ul" aria-label={t('profile.passkeys.heading')} sx={{ listStyle: 'none', m: 0, p: 0, borderBottom: 1, borderColor: 'divider' }}>
              {passkeys.map((p) => (
                <PasskeyRow key={p._id} passkey={p} removing={removing === p._id} onRemove={() => void remove(p)} />
              ))}
            </Box>
          ))}
        {action}
      </Stack>
    </SettingsSection>
  );
}
