import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TOKEN_EXPIRY_UNITS } from '../../domain/constants';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { useDashboardMutation, type TokenCreate as TokenCreateBody } from '../../dataProvider/dashboard';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { EndpointsField } from './EndpointsField';
import { TokenCreatedDialog } from './TokenCreatedDialog';
import { tokenBody, tokenProblems, type TokenDraft } from './tokenRules';

/** Create token: purpose, endpoints (literal text with * wildcards, with query-parameter restrictions), apps, expiry and use. */
export function TokenCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { api, apps, basePath, writable } = useAnalytics();
  const [draft, setDraft] = useState<TokenDraft>({ purpose: '', endpoints: [], allApps: false, apps: [], neverExpires: false, amount: '30', unit: 'days', multiUse: true });
  const [tried, setTried] = useState(false);
  const { run, failure, submitting: saving } = useFormSubmit();
  const create = useDashboardMutation(api, (a, body: TokenCreateBody) => a.createToken(body));
  const [created, setCreated] = useState<string | null>(null);
  const problems = tried ? tokenProblems(draft) : [];

  const save = async () => {
    setTried(true);
    if (tokenProblems(draft).length) return;
    await run(async () => setCreated((await create.mutateAsync(tokenBody(draft))).token));
  };

  return (
    <>
      <ScreenHeading titleKey="analytics.tokens.create" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
        <Stack component="form" noValidate spacing={2.5} aria-label={t('analytics.tokens.create')} onSubmit={(e) => (e.preventDefault(), void save())}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <TextField required label={t('analytics.tokens.purpose')} value={draft.purpose} error={problems.includes('purpose')} onChange={(e) => setDraft({ ...draft, purpose: e.target.value })} slotProps={{ htmlInput: { maxLength: 100 } }} />
          <EndpointsField value={draft.endpoints} onChange={(endpoints) => setDraft({ ...draft, endpoints })} problems={problems} />
          <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <FormLabel component="legend" error={problems.includes('apps')}>
              {t('analytics.tokens.apps')}
            </FormLabel>
            <FormControlLabel control={<Switch checked={draft.allApps} onChange={(e) => setDraft({ ...draft, allApps: e.target.checked })} />} label={t('analytics.tokens.allApps')} />
            {!draft.allApps && (
              <FormGroup>
                {apps.map((a) => (
                  <FormControlLabel
                    key={a._id}
                    label={a.name}
                    control={<Checkbox checked={draft.apps.includes(a._id)} onChange={(e) => setDraft({ ...draft, apps: e.target.checked ? [...draft.apps, a._id] : draft.apps.filter((id) => id !== a._id) })} />}
                  />
                ))}
              </FormGroup>
            )}
            {problems.includes('apps') && <FormHelperText error>{t('analytics.tokens.needsApps')}</FormHelperText>}
          </Stack>
          <Stack component="fieldset" spacing={1} sx={{ border: 0, p: 0, m: 0 }}>
            <FormLabel component="legend" error={problems.includes('expiry')}>
              {t('analytics.tokens.expiry')}
            </FormLabel>
            <FormControlLabel control={<Switch checked={draft.neverExpires} onChange={(e) => setDraft({ ...draft, neverExpires: e.target.checked })} />} label={t('analytics.tokens.neverExpires')} />
            {!draft.neverExpires && (
              <Stack direction="row" spacing={1.5}>
                <TextField type="number" label={t('analytics.tokens.expiryAmount')} value={draft.amount} error={problems.includes('expiry')} onChange={(e) => setDraft({ ...draft, amount: e.target.value })} slotProps={{ htmlInput: { min: 1, max: 10000 } }} sx={{ width: 160 }} />
                <TextField select label={t('analytics.tokens.expiry')} value={draft.unit} onChange={(e) => setDraft({ ...draft, unit: e.target.value as TokenDraft['unit'] })} sx={{ width: 160 }}>
                  {TOKEN_EXPIRY_UNITS.map((u) => (
                    <MenuItem key={u} value={u}>
                      {t(`analytics.tokens.units.${u}`)}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
            )}
            {problems.includes('expiry') && <FormHelperText error>{t('analytics.tokens.needsExpiry')}</FormHelperText>}
          </Stack>
          <FormControlLabel control={<Switch checked={draft.multiUse} onChange={(e) => setDraft({ ...draft, multiUse: e.target.checked })} />} label={t('analytics.tokens.multiUse')} />
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" loading={saving} disabled={!writable}>
              {t('analytics.tokens.create')}
            </Button>
            <Button onClick={() => navigate(`${basePath}/tokens`)}>{t('analytics.cancel')}</Button>
          </Stack>
        </Stack>
      </Paper>
      {created && <TokenCreatedDialog token={created} onClose={() => navigate(`${basePath}/tokens`)} />}
    </>
  );
}
