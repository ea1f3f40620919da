import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { EndpointDraft, TokenProblem } from './tokenRules';

const bad = (problems: TokenProblem[], endpoint: number, param?: number) => problems.some((p) => typeof p === 'object' && p.endpoint === endpoint && p.param === param);

/** The endpoints a token opens: path patterns, each with optional query-parameter patterns. None: every endpoint. */
export function EndpointsField({ value, onChange, problems }: { value: EndpointDraft[]; onChange: (next: EndpointDraft[]) => void; problems: TokenProblem[] }) {
  const { t } = useTranslation();
  const set = (i: number, next: EndpointDraft) => onChange(value.map((e, j) => (j === i ? next : e)));
  return (
    <Stack component="fieldset" spacing={1.5} sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend">{t('analytics.tokens.endpoints')}</FormLabel>
      {!value.length && <Typography color="text.secondary">{t('analytics.tokens.anyEndpoint')}</Typography>}
      {value.map((endpoint, i) => (
        <Paper key={i} variant="outlined" sx={{ p: 1.5 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              fullWidth
              size="small"
              label={t('analytics.tokens.endpoint')}
              helperText={t('analytics.tokens.endpointHint')}
              value={endpoint.path}
              error={bad(problems, i)}
              onChange={(e) => set(i, { ...endpoint, path: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 200, spellCheck: false } }}
            />
            <IconButton aria-label={`${t('analytics.tokens.remove')} ${endpoint.path}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
              <DeleteIcon />
            </IconButton>
          </Stack>
          {endpoint.params.map((param, j) => (
            <Box key={j} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: '1fr 2fr auto' }, gap: 1, mt: 1.5, pl: { sm: 2 } }}>
              <TextField size="small" label={t('analytics.tokens.paramName')} value={param.name} error={bad(problems, i, j)} onChange={(e) => set(i, { ...endpoint, params: endpoint.params.map((p, k) => (k === j ? { ...p, name: e.target.value } : p)) })} />
              <TextField size="small" label={t('analytics.tokens.paramPattern')} value={param.pattern} error={bad(problems, i, j)} onChange={(e) => set(i, { ...endpoint, params: endpoint.params.map((p, k) => (k === j ? { ...p, pattern: e.target.value } : p)) })} sx={{ gridColumn: { xs: '1', sm: 'auto' }, gridRow: { xs: 2, sm: 'auto' } }} />
              <IconButton aria-label={`${t('analytics.tokens.remove')} ${param.name}`} onClick={() => set(i, { ...endpoint, params: endpoint.params.filter((_, k) => k !== j) })}>
                <DeleteIcon />
              </IconButton>
            </Box>
          ))}
          <Button size="small" startIcon={<AddIcon />} onClick={() => set(i, { ...endpoint, params: [...endpoint.params, { name: '', pattern: '' }] })} sx={{ mt: 1 }}>
            {t('analytics.tokens.addParam')}
          </Button>
        </Paper>
      ))}
      <Button startIcon={<AddIcon />} onClick={() => onChange([...value, { path: '', params: [] }])} sx={{ alignSelf: 'flex-start' }}>
        {t('analytics.tokens.addEndpoint')}
      </Button>
    </Stack>
  );
}
