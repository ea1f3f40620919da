import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useSetPassword } from '../../dataProvider/auth/queries';
import { ApiError } from '../../dataProvider/httpClient';
import { useUpdateProfile } from '../../dataProvider/users/queries';
import { DESIGNATIONS, LIMITS, UPLOAD_IMAGE_TYPES, type Designation } from '../../src/domain/constants';
import { resetPasswordFormSchema, setPasswordSchema, type CurrentUser } from '../../src/domain/auth/schemas';
import { profileUpdateSchema } from '../../src/domain/users/schemas';
import { session } from '../../src/session';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { useTranslateMessage } from '../../src/ui/form/messages';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { NativeSelectField } from '../../src/ui/form/NativeSelectField';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { ReadOnlyField } from '../../src/ui/form/ReadOnlyField';
import { InitialsAvatar } from '../../src/ui/misc/InitialsAvatar';
import { SettingsSection } from './SettingsSection';
import '../../src/profileI18n';

const profileFormSchema = profileUpdateSchema.pick({ firstName: true, designation: true });
type ProfileForm = z.input<typeof profileFormSchema>;

/** What happens to the picture on save: kept, replaced by a chosen file, or removed. */
type PictureChange = { kind: 'keep' } | { kind: 'upload'; file: File; preview: string } | { kind: 'remove' };

const ACCEPTED_TYPES: readonly string[] = UPLOAD_IMAGE_TYPES;
const MAX_MEGABYTES = LIMITS.uploadMaxBytes / (1024 * 1024);

/**
 * The preview of a chosen picture as a data: URL; the API's content security policy allows data:
 * images but not blob: ones, and at 1 MB at most the copy in memory is small.
 */
const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });

const designationOf = (user: CurrentUser): Designation | undefined => DESIGNATIONS.find((d) => d === user.designation);

function ProfileCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [picture, setPicture] = useState<PictureChange>({ kind: 'keep' });
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const updateProfile = useUpdateProfile();
  const { control, handleSubmit, setError, reset, formState } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onTouched',
    defaultValues: { firstName: user.firstName, designation: designationOf(user) },
  });
  // A refused picture is told beside the picture, not in the form's alert.
  const claimPictureError = (error: unknown) => {
    const onPicture = error instanceof ApiError ? error.fieldErrors?.uploadPicture?.[0] : undefined;
    if (onPicture) setPictureError(translate(onPicture));
    else if (error instanceof ApiError && (error.code === 'FILE_TOO_BIG' || error.code === 'FILE_TYPE')) setPictureError(error.message);
    else return false;
    return true;
  };
  const { run, failure, setFailure } = useFormSubmit<ProfileForm>({ fields: ['firstName', 'designation'], setError, intercept: (error) => session.handleError(error) || claimPictureError(error) });

  // Only the latest choice may set the preview, however the reads of earlier ones finish.
  const choice = useRef(0);

  const choose = (file: File | undefined) => {
    setSaved(false);
    if (!file) return;
    // The server checks too; checking here saves uploading a file it will refuse.
    if (!ACCEPTED_TYPES.includes(file.type)) return setPictureError(t('errors.FILE_TYPE'));
    if (file.size > LIMITS.uploadMaxBytes) return setPictureError(t('errors.fileTooBig'));
    setPictureError(null);
    const mine = (choice.current += 1);
    readAsDataUrl(file).then(
      (preview) => mine === choice.current && setPicture({ kind: 'upload', file, preview }),
      () => mine === choice.current && setPictureError(t('errors.somethingWentWrong')),
    );
  };

  const submit = handleSubmit(async ({ firstName, designation }) => {
    setFailure(null);
    setSaved(false);
    const current = session.getSnapshot().user;
    if (!current) return setFailure(t('errors.sessionTimedOut'));
    await run(async () => {
      const file = picture.kind === 'upload' ? picture.file : picture.kind === 'remove' ? null : undefined;
      await updateProfile.mutateAsync({ userId: current._id, update: { firstName, designation, picture: file } });
      // SPEC §4: a profile update refreshes the current user.
      const fresh = await session.refresh('manual');
      reset(fresh ? { firstName: fresh.firstName, designation: designationOf(fresh) } : { firstName, designation });
      setPicture({ kind: 'keep' });
      setPictureError(null);
      setSaved(true);
    });
  });

  const shownPicture = picture.kind === 'upload' ? picture.preview : picture.kind === 'remove' ? null : user.picture;
  const pending = picture.kind === 'upload' ? t('profile.account.picturePending') : picture.kind === 'remove' ? t('profile.account.pictureRemovalPending') : null;
  const fullName = `${user.firstName} ${user.lastName}`.trim();

  return (
    <SettingsSection title={t('profile.account.heading')} intro={t('profile.account.intro')}>
      <Box component="form" noValidate onSubmit={submit} onChange={() => setSaved(false)}>
        <Stack spacing={3}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {saved && (
            <Alert severity="success" role="status">
              {t('profile.account.saved')}
            </Alert>
          )}
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 1.5 }}>
              {t('profile.account.picture')}
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2.5, flexWrap: 'wrap' }}>
              <InitialsAvatar name={fullName} src={shownPicture} size={88} />
              <Stack spacing={1} sx={{ minWidth: 0, flex: '1 1 160px' }}>
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                  <Button variant="outlined" component="label">
                    {t(shownPicture ? 'profile.account.changePicture' : 'profile.account.uploadPicture')}
                    <input
                      type="file"
                      hidden
                      accept={UPLOAD_IMAGE_TYPES.join(',')}
                      onChange={(e) => {
                        choose(e.target.files?.[0]);
                        // Cleared so that choosing the same file again still fires a change.
                        e.target.value = '';
                      }}
                    />
                  </Button>
                  {shownPicture && (
                    <Button
                      color="error"
                      onClick={() => {
                        setSaved(false);
                        setPictureError(null);
                        choice.current += 1;
                        setPicture({ kind: 'remove' });
                      }}
                    >
                      {t('profile.account.removePicture')}
                    </Button>
                  )}
                  {picture.kind !== 'keep' && (
                    <Button
                      color="inherit"
                      onClick={() => {
                        choice.current += 1;
                        setPicture({ kind: 'keep' });
                      }}
                    >
                      {t('profile.account.undoPicture')}
                    </Button>
                  )}
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {t('profile.account.pictureHint', { size: `${MAX_MEGABYTES} MB` })}
                </Typography>
                {pending && (
                  <Typography variant="body2" color="primary" role="status">
                    {pending}
                  </Typography>
                )}
                {pictureError && (
                  <Alert severity="error" role="alert" sx={{ py: 0 }}>
                    {pictureError}
                  </Alert>
                )}
              </Stack>
            </Box>
          </Box>
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            <FormTextField control={control} name="firstName" label={t('profile.account.firstName')} autoComplete="given-name" />
            <NativeSelectField
              control={control}
              name="designation"
              label={t('profile.account.designation')}
              placeholder={t('profile.account.choose')}
              options={DESIGNATIONS.map((value) => ({ value, label: t(`designations.${value}`) }))}
            />
          </Box>
          <ReadOnlyField label={t('profile.account.email')} value={user.email} type="email" hint={t('profile.account.emailHint')} />
          <Box>
            <Button type="submit" variant="contained" size="large" loading={formState.isSubmitting} sx={{ width: { xs: '100%', sm: 'auto' } }}>
              {t('profile.account.save')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </SettingsSection>
  );
}

// The new password is typed twice, with the confirmation rules of the reset form (SPEC §5). The
// old one is asked for when the account has one; an account made with Google sets its first.
const setPasswordFormSchema = (hasPassword: boolean) =>
  setPasswordSchema
    .extend({ confirmPassword: resetPasswordFormSchema.shape.confirmPassword })
    .refine((v) => !hasPassword || Boolean(v.oldPassword), { path: ['oldPassword'], message: 'validation.required' })
    .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.match' });

function SetPasswordCard({ hasPassword, mustChange }: { hasPassword: boolean; mustChange: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { control, handleSubmit, setError, formState } = useForm({
    resolver: zodResolver(setPasswordFormSchema(hasPassword)),
    mode: 'onTouched',
    defaultValues: { oldPassword: '', password: '', confirmPassword: '' },
  });
  const { run, failure, setFailure } = useFormSubmit({ fields: ['oldPassword', 'password'], setError, intercept: session.handleError });
  const setPasswordCall = useSetPassword();
  const submit = handleSubmit(async ({ oldPassword, password }) => {
    setFailure(null);
    if (!session.getSnapshot().user) return setFailure(t('errors.sessionTimedOut'));
    if (!(await run(() => setPasswordCall.mutateAsync({ oldPassword: hasPassword ? oldPassword : undefined, password })))) return;
    // SPEC §4: setting a password logs the user out; the API has already ended every session.
    session.end(null, 'signOut');
    navigate('/account/signin?ref=password-reset', { replace: true });
  });
  return (
    <SettingsSection title={t('profile.password.heading')} intro={t(hasPassword ? 'profile.password.intro' : 'profile.password.firstIntro')}>
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2.5} sx={{ maxWidth: 480 }}>
          {mustChange && (
            <Alert severity="warning" role="note">
              {t('profile.password.mustChange')}
            </Alert>
          )}
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {hasPassword && <PasswordField control={control} name="oldPassword" label={t('profile.password.oldPassword')} autoComplete="current-password" />}
          <PasswordField control={control} name="password" label={t('profile.password.newPassword')} autoComplete="new-password" showRules />
          <PasswordField control={control} name="confirmPassword" label={t('profile.password.confirmPassword')} autoComplete="new-password" />
          <Box>
            <Button type="submit" variant="contained" loading={formState.isSubmitting} sx={{ width: { xs: '100%', sm: 'auto' } }}>
              {t('profile.password.submit')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </SettingsSection>
  );
}

/** /profile/account (SPEC §2): name, role and picture, then the password. */
export default function AccountSettings({ user }: { user: CurrentUser }) {
  return (
    <Stack spacing={3}>
      <ProfileCard user={user} />
      <SetPasswordCard key={String(user.hasPassword)} hasPassword={user.hasPassword} mustChange={user.mustChangePassword === true} />
    </Stack>
  );
}
