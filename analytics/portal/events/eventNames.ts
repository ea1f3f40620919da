import type { TFunction } from 'i18next';
import type { EventDto } from '../../domain/schemas';

type Property = 'count' | 'sum' | 'dur';

/** An event as people read it: its display name, else its key. */
export const eventLabel = (event: Pick<EventDto, 'key' | 'name'>) => event.name || event.key;

/** A property's name for this event: its own display name for count, sum or duration, else the default. */
export function propertyLabel(t: TFunction, property: Property, event?: Partial<Pick<EventDto, 'countName' | 'sumName' | 'durName'>>): string {
  const own = property === 'count' ? event?.countName : property === 'sum' ? event?.sumName : event?.durName;
  return own || t(`analytics.metrics.${property}`);
}
