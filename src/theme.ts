import { createTheme, type Theme } from '@mui/material/styles';

let created: Theme | null = null;

/**
 * One theme for the front door, the portal and the admin area. Created at its first use, in the
 * first render, rather than while the shell's modules are evaluated: on a phone that evaluation
 * was one long task, with `createTheme` a third of it.
 */
export function appTheme(): Theme {
  created ??= createTheme({
    palette: {
      primary: { main: '#1a56db' },
      secondary: { main: '#0e9f6e' },
      success: { main: '#0e9f6e' },
      background: { default: '#f7f8fa' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: '2rem', fontWeight: 700 },
      h2: { fontSize: '1.5rem', fontWeight: 700 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  });
  return created;
}
