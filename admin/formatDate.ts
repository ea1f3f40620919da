/** A date and time as the admin tables show it (en-US, the user's time zone). */
export const formatDateTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-US') : '');
