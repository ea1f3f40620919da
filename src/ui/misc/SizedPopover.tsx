import Popover, { type PopoverProps } from '@mui/material/Popover';

/** SPEC §9 popover sizes; the chart sizes leave room for a chart's height. */
export const POPOVER_SIZES = {
  small: { width: 280 },
  medium: { width: 420 },
  auto: { width: 'auto' },
  'small-chart': { width: 360, minHeight: 240 },
  'medium-chart': { width: 560, minHeight: 320 },
  'auto-chart': { width: 'auto', minHeight: 320 },
} as const;
export type PopoverSize = keyof typeof POPOVER_SIZES;

export interface SizedPopoverProps extends Omit<PopoverProps, 'slotProps'> {
  size?: PopoverSize;
  /** Accessible name of the popover's content. */
  label?: string;
}

/** A popover in one of the standard sizes, never wider than the screen. */
export function SizedPopover({ size = 'auto', label, children, ...rest }: SizedPopoverProps) {
  return (
    <Popover {...rest} slotProps={{ paper: { role: 'dialog', 'aria-label': label, sx: { ...POPOVER_SIZES[size], maxWidth: 'calc(100vw - 32px)', p: 2 } } }}>
      {children}
    </Popover>
  );
}
