import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Link as RouterLink } from 'react-router';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { customDomainIssue } from '../../domain/deployments/customDomain';
import { optionsIncludeCustomDomain, type DeploymentPopulated, type UpdateDomainBody } from '../../domain/deployments/schemas';
import { dateTime } from './status';
import type { ServerCertificate } from '../../domain/deployments/edge';
import { FormTextField } from '../form/FormTextField';
import { CertificateState } from './CertificateState';
import { Section } from './Section';
import { useServerAction, type ActionAnswer } from './useServerAction';

/** The name's rules as the API says them (customDomain.ts): its refusals' messages, with their values. */
const domainFormSchema = (t: TFunction) =>
  z.object({
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, 'validation.required')
      .superRefine((name, ctx) => {
        const issue = customDomainIssue(name);
        if (issue) ctx.addIssue({ code: 'custom', message: t(`errors.${issue.code}`, issue.params) });
      }),
  });
type DomainForm = z.input<ReturnType<typeof domainFormSchema>>;
const CHECK_SEVERITY = { failed: 'warning', missing: 'error', stopped: 'error' } as const;

/** The panel's two calls: the portal passes the customer's routes, the admin server page its admin routes. */
export interface DomainCalls<A extends ActionAnswer> {
  updateDomain(body: UpdateDomainBody, removeSSL?: boolean): Promise<A>;
  verifyDomain(): Promise<A>;
}

interface Props<A extends ActionAnswer> {
  deployment: Pick<DeploymentPopulated, '_id' | 'status' | 'terminationScheduledAt' | 'domain' | 'features'>;
  canEdit: boolean;
  /** Where the customer changes the server's options: offered instead of a custom domain the plan lacks. */
  upgradeTo?: string;
  onAnswer: (answer: A) => void;
  calls: DomainCalls<A>;
  /** The certificate the edge serves for the address (GET .../certificate); undefined until read. */
  certificate: ServerCertificate | undefined;
}

/**
 * The server's address: a custom domain, the DNS records it needs (TXT for ownership, CNAME to the
 * server's default address), what the last check found when it found them wrong, verification and SSL.
 */
export function DomainPanel<A extends ActionAnswer>({ deployment: d, canEdit, onAnswer, calls, upgradeTo, certificate }: Props<A>) {
  const { t } = useTranslation();
  const { run, pending } = useServerAction(onAnswer);
  const domain = d.domain;
  const acting = canEdit && d.status === 'running' && !d.terminationScheduledAt && !pending;
  // The server refuses a custom domain the options lack (DOMAIN_NOT_IN_PLAN): offer the upgrade instead.
  const customAllowed = optionsIncludeCustomDomain(d.features);
  const schema = useMemo(() => domainFormSchema(t), [t]);
  const { control, handleSubmit, reset } = useForm<DomainForm, unknown, z.output<typeof schema>>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { domain: '' } });
  const check = domain?.custom ? domain.check : null;
  // The records while the domain waits for its verification, and while the daily check misses them.
  const showRecords = domain?.custom && domain.verification.length > 0 && (!domain.verified || check?.state === 'missing');
  const target = domain?.verification.find((r) => r.type === 'CNAME')?.value;
  const submit = handleSubmit(async ({ domain: name }) => {
    const done = await run({ title: t('deployment.domain.set'), message: name, confirmLabel: t('deployment.domain.set'), call: () => calls.updateDomain({ domain: name }) });
    if (done) reset({ domain: '' });
  });
  return (
    <Section title={t('deployment.domain.title')} testId="domain-panel">
      {domain && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography sx={{ overflowWrap: 'anywhere' }} data-testid="domain-name">
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {t(domain.custom ? 'deployment.domain.customDomain' : 'deployment.domain.defaultDomain')}:{' '}
            </Box>
            {domain.name}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <CertificateState certificate={certificate} verified={domain.verified} />
            {domain.custom && (
              <Chip size="small" variant="outlined" color={domain.verified ? 'success' : 'warning'} label={t(domain.verified ? 'deployment.domain.verified' : 'deployment.domain.notVerified')} data-testid="domain-verified" />
            )}
          </Box>
        </Box>
      )}
      {check && (
        <Alert severity={CHECK_SEVERITY[check.state]} data-testid="dns-check" data-state={check.state}>
          <Typography variant="body2">{t(`deployment.domain.check.${check.state}`, { date: dateTime.format(new Date(check.at)), stopsAt: check.stopsAt ? dateTime.format(new Date(check.stopsAt)) : '' })}</Typography>
          <Typography variant="body2" data-testid="dns-findings" sx={{ mt: 0.5, fontFamily: 'monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {check.findings}
          </Typography>
        </Alert>
      )}
      {showRecords && (
        <Alert severity="info" icon={false} data-testid="dns-record">
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t(domain.verified ? 'deployment.domain.recordIntroRestore' : 'deployment.domain.recordIntro')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 1.5 }}>
            {domain.verification.map((r) => (
              <Box key={`${r.type}-${r.host}`} data-testid="dns-record-line" data-type={r.type}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {t(`deployment.domain.recordPurpose.${r.type}`)}
                </Typography>
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25, fontSize: '0.875rem', '& dd': { m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere' } }}>
                  <dt>{t('deployment.domain.recordType')}</dt>
                  <dd>{r.type}</dd>
                  <dt>{t('deployment.domain.recordHost')}</dt>
                  <dd>{r.host}</dd>
                  <dt>{t('deployment.domain.recordValue')}</dt>
                  <dd>{r.value}</dd>
                </Box>
              </Box>
            ))}
          </Box>
          {target && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('deployment.domain.apexNote', { target })}
            </Typography>
          )}
        </Alert>
      )}
      {canEdit && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {domain?.custom && !domain.verified && customAllowed && (
            <Button variant="contained" disabled={!acting} onClick={() => void run({ title: t('deployment.domain.verify'), message: domain.name, confirmLabel: t('deployment.domain.verify'), call: () => calls.verifyDomain() })}>
              {t('deployment.domain.verify')}
            </Button>
          )}
          {domain && (domain.ssl === 'active' || domain.ssl === 'pending' || domain.ssl === 'failed') && (
            <Button
              variant="outlined"
              color="warning"
              disabled={!acting}
              onClick={() =>
                void run({
                  title: t('deployment.domain.removeSslTitle', { domain: domain.name }),
                  message: t('deployment.domain.removeSslMessage'),
                  confirmLabel: t('deployment.domain.removeSsl'),
                  danger: true,
                  call: () => calls.updateDomain(domain.custom ? { domain: domain.name } : {}, true),
                })
              }
            >
              {t('deployment.domain.removeSsl')}
            </Button>
          )}
          {domain?.custom && (
            <Button
              variant="text"
              disabled={!acting}
              onClick={() => void run({ title: t('deployment.domain.useDefaultTitle'), message: t('deployment.domain.useDefaultMessage'), confirmLabel: t('deployment.domain.useDefault'), call: () => calls.updateDomain({ domain: null }) })}
            >
              {t('deployment.domain.useDefault')}
            </Button>
          )}
        </Box>
      )}
      {canEdit && !customAllowed && (
        <Box data-testid="domain-upgrade" sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
          <Typography color="text.secondary">{t('deployment.domain.notInPlan')}</Typography>
          {upgradeTo && (
            <Button variant="outlined" component={RouterLink} to={upgradeTo} disabled={!acting}>
              {t('deployment.domain.upgrade')}
            </Button>
          )}
        </Box>
      )}
      {canEdit && customAllowed && (
        <Box component="form" noValidate onSubmit={submit} aria-label={t('deployment.domain.set')} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 1fr) auto' }, alignItems: 'start' }}>
          <FormTextField control={control} name="domain" label={t('deployment.domain.field')} autoComplete="off" disabled={!acting} maxLength={253} />
          <Button type="submit" variant="outlined" size="large" disabled={!acting} sx={{ height: 56 }}>
            {t('deployment.domain.set')}
          </Button>
        </Box>
      )}
    </Section>
  );
}
