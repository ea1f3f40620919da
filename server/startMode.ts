/**
 * How this process runs and how it takes payments, decided once from the environment (raw
 * strings, empty ones already removed) so that `npm start`, `node dist-server/index.js` and the
 * worker decide alike and the log can say why.
 */
export type StartMode = 'production' | 'demo' | 'development' | 'test';
export type PaymentsMode = 'paddle' | 'stand-in' | 'off';

export interface StartDecision {
  mode: StartMode;
  payments: PaymentsMode;
  /** Why, in the order the rule looked: said in the log at every start. */
  reasons: string[];
}

/** What `npm start` (scripts/start.mjs) sets in STARTED_BY: the one start that may be a demo. */
export const NPM_START = 'npm-start';

export const PADDLE_KEYS = ['PADDLE_API_KEY', 'PADDLE_WEBHOOK_SECRET', 'PADDLE_CLIENT_TOKEN', 'PADDLE_PRODUCT_ID'] as const;

/** This machine's own names: an address only this machine can open is no public deploy. */
function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]';
}

/**
 * The settings only a deployment for real users carries: a public https PUBLIC_URL, SECRET_KEYS,
 * SMTP_URL or Paddle's keys. Each one found, as a reason.
 */
export function productionSettings(env: Readonly<Record<string, string | undefined>>): string[] {
  const found: string[] = [];
  if (env.PUBLIC_URL) {
    try {
      const url = new URL(env.PUBLIC_URL);
      if (url.protocol === 'https:' && !isLocalHost(url.hostname)) found.push(`PUBLIC_URL is public https (${url.host})`);
    } catch {
      // Not a URL: the configuration refuses it.
    }
  }
  if (env.SECRET_KEYS) found.push('SECRET_KEYS is set');
  if (env.SMTP_URL) found.push('SMTP_URL is set');
  if (PADDLE_KEYS.some((k) => env[k])) found.push('PADDLE_* is set');
  return found;
}

/**
 * The rule. NODE_ENV, when set, is the mode. Unset, a start carrying any production setting is
 * production; a bare `npm start` is the demo; any other start is production (the default).
 * Payments: Paddle when its keys are set; else PAYMENTS_STAND_IN when set; else the stand-in
 * (test cards, no money) everywhere but production, where paid orders are refused.
 */
export function decideStartMode(env: Readonly<Record<string, string | undefined>>): StartDecision {
  const nodeEnv = env.NODE_ENV;
  const settings = productionSettings(env);
  let mode: StartMode;
  const reasons: string[] = [];
  if (nodeEnv === 'production' || nodeEnv === 'development' || nodeEnv === 'test') {
    mode = nodeEnv;
    reasons.push(`NODE_ENV=${nodeEnv}`);
  } else if (settings.length) {
    mode = 'production';
    reasons.push(`NODE_ENV is unset but the start carries production settings: ${settings.join(', ')}`);
  } else if (env.STARTED_BY === NPM_START) {
    mode = 'demo';
    reasons.push('npm start with no NODE_ENV and no production setting (public https PUBLIC_URL, SECRET_KEYS, SMTP_URL, PADDLE_*)');
  } else {
    mode = 'production';
    reasons.push('NODE_ENV is unset: production is the default');
  }

  let payments: PaymentsMode;
  if (PADDLE_KEYS.every((k) => env[k])) {
    payments = 'paddle';
    reasons.push(`PADDLE_* is set: Paddle (${env.PADDLE_ENV ?? 'sandbox'}) takes the payments`);
  } else if (env.PAYMENTS_STAND_IN === 'true') {
    payments = 'stand-in';
    reasons.push('PAYMENTS_STAND_IN=true: test cards activate paid orders and no money is taken');
  } else if (env.PAYMENTS_STAND_IN === 'false') {
    payments = 'off';
    reasons.push('PAYMENTS_STAND_IN=false: paid orders are refused');
  } else if (mode === 'production') {
    payments = 'off';
    reasons.push('no PADDLE_* and PAYMENTS_STAND_IN unset in production: paid orders are refused (PAYMENTS_STAND_IN=true takes test cards instead)');
  } else {
    payments = 'stand-in';
    reasons.push(`${mode}: the checkout stand-in takes test cards and no money is taken`);
  }
  return { mode, payments, reasons };
}

/** The line the log says at every start; a warning when production takes no real payments. */
export function startModeLine({ mode, payments, reasons }: StartDecision): { level: 'info' | 'warn'; message: string } {
  return { level: mode === 'production' && payments !== 'paddle' ? 'warn' : 'info', message: `mode ${mode}, payments ${payments}: ${reasons.join('; ')}` };
}
