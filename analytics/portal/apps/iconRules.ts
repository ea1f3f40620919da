import { ICON_TYPES } from '../../domain/constants';

/** SPEC §5: an app icon is JPG, PNG or GIF only (the server checks the bytes again). */
export const isIconType = (file: Pick<File, 'type'>) => (ICON_TYPES as readonly string[]).includes(file.type);
