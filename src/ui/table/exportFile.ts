/** CSV and JSON export of a table's current query. */
import { csvField as csvText } from '../../domain/csv';
import { cellText, type CellValue, type DataTableColumn } from './columns';

export type ExportFormat = 'csv' | 'json';

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** `users` → `users-2026-11-21.csv`, in the user's local date. */
export function exportFileName(base: string, format: ExportFormat, date: Date = new Date()): string {
  return `${base}-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.${format}`;
}

/** One CSV field of a table cell; text that could run as a formula is defused (domain/csv). */
export function csvField(value: CellValue): string {
  return csvText(cellText(value), typeof value === 'string');
}

function jsonValue(value: CellValue): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface BuildOptions {
  /** Rows per Blob part; between parts the browser gets to paint and handle input. */
  chunkSize?: number;
  yieldToBrowser?: () => Promise<void>;
}

/**
 * Builds the file as Blob parts, a chunk of rows at a time, so 100,000 rows never become one
 * giant string nor freeze the page.
 */
export async function buildExportParts<T>(rows: readonly T[], columns: readonly DataTableColumn<T>[], format: ExportFormat, options: BuildOptions = {}): Promise<string[]> {
  const { chunkSize = 5000, yieldToBrowser = nextTask } = options;
  columns = columns.filter((c) => c.exportable !== false);
  const parts: string[] = [];
  // A byte-order mark lets spreadsheet apps read the UTF-8 correctly.
  if (format === 'csv') parts.push(`\uFEFF${columns.map((c) => csvField(c.header)).join(',')}\r\n`);
  else parts.push('[');
  for (let start = 0; start < rows.length; start += chunkSize) {
    if (start > 0) await yieldToBrowser();
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows.length, start + chunkSize); i += 1) {
      const row = rows[i] as T;
      if (format === 'csv') {
        lines.push(`${columns.map((c) => csvField(c.value(row))).join(',')}\r\n`);
      } else {
        const record: Record<string, string | number | boolean | null> = {};
        for (const c of columns) record[c.id] = jsonValue(c.value(row));
        lines.push(`${i === 0 ? '' : ','}\n${JSON.stringify(record)}`);
      }
    }
    parts.push(lines.join(''));
  }
  if (format === 'json') parts.push(rows.length ? '\n]\n' : ']\n');
  return parts;
}

/** Starts a browser download of a link (a built Blob's or the server's streaming export). */
export function downloadLink(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}

export function downloadParts(parts: BlobPart[], format: ExportFormat, fileName: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type: EXPORT_TYPES[format] }));
  downloadLink(url, fileName);
  // Revoked later: the download reads the Blob after this returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
