/** SPEC §7: an export is saved as a JSON file named with the date (the device id keeps files apart). */
export function exportFileName(deviceId: string, createdAt: string): string {
  const device = deviceId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'user';
  return `export-${device}-${createdAt.slice(0, 10)}.json`;
}
