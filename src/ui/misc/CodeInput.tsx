import Box from '@mui/material/Box';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '../../domain/constants';
import { DIGIT, emptyCells, fillCells, isComplete } from './codeCells';

export interface CodeInputProps {
  /** Names the group, e.g. 'Verification code'. */
  label: string;
  /** Called once the last empty cell is filled. */
  onComplete: (code: string) => void;
  onChange?: (code: string) => void;
  /** SPEC §5: the data-removal code has 5 cells. */
  length?: number;
  /** Which single characters a cell accepts; digits by default. */
  allowed?: RegExp;
  disabled?: boolean;
  autoFocus?: boolean;
  error?: boolean;
}

/** The 5-cell code input: auto-advance, paste fills the cells, Backspace goes back. */
export function CodeInput({ label, onComplete, onChange, length = LIMITS.dataRemovalCodeLength, allowed = DIGIT, disabled, autoFocus, error }: CodeInputProps) {
  const { t } = useTranslation();
  const [cells, setCells] = useState(() => emptyCells(length));
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (i: number) => {
    const el = inputs.current[Math.max(0, Math.min(length - 1, i))];
    el?.focus();
    el?.select();
  };
  const update = (next: string[], focusAt: number) => {
    const wasComplete = isComplete(cells);
    setCells(next);
    onChange?.(next.join(''));
    focus(focusAt);
    if (isComplete(next) && !wasComplete) onComplete(next.join(''));
  };
  const onInput = (i: number, raw: string) => {
    if (raw === '') {
      update(cells.map((c, j) => (j === i ? '' : c)), i);
      return;
    }
    // Typing into a filled cell replaces it; several characters at once (autofill) act as a paste.
    const old = cells[i] ?? '';
    const typed = old && raw.length === 2 ? (raw.startsWith(old) ? raw.slice(1) : raw.slice(0, 1)) : raw;
    const filled = fillCells(cells, i, typed, allowed);
    if (filled.cells.join('') !== cells.join('')) update(filled.cells, filled.focus);
  };
  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace' && cells[i] === '' && i > 0) {
      e.preventDefault();
      update(cells.map((c, j) => (j === i - 1 ? '' : c)), i - 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      focus(i - 1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      focus(i + 1);
    }
  };
  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    const filled = fillCells(cells, i, e.clipboardData.getData('text'), allowed);
    update(filled.cells, filled.focus);
  };
  const numeric = allowed === DIGIT;
  return (
    <Box role="group" aria-label={label} sx={{ display: 'flex', gap: 1 }}>
      {cells.map((c, i) => (
        <Box
          key={i}
          component="input"
          ref={(el: HTMLInputElement | null) => {
            inputs.current[i] = el;
          }}
          value={c}
          disabled={disabled}
          autoFocus={autoFocus && i === 0}
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          inputMode={numeric ? 'numeric' : 'text'}
          aria-label={t('widgets.code.cell', { index: i + 1, length })}
          aria-invalid={error || undefined}
          onChange={(e) => onInput(i, e.target.value)}
          onKeyDown={(e) => onKeyDown(i, e)}
          onPaste={(e) => onPaste(i, e)}
          onFocus={(e) => e.target.select()}
          sx={{
            width: 48,
            height: 56,
            textAlign: 'center',
            fontSize: '1.5rem',
            fontFamily: 'inherit',
            border: 1,
            borderColor: error ? 'error.main' : 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
            color: 'text.primary',
            outline: 'none',
            '&:focus': { borderColor: 'primary.main', boxShadow: (theme) => `0 0 0 2px ${theme.palette.primary.main}33` },
            '&:disabled': { opacity: 0.6 },
          }}
        />
      ))}
    </Box>
  );
}
