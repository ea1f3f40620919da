import { useQuery } from '@tanstack/react-query';
import { ONE_SHOT } from '../queries';
import { contentApi } from './index';

/** Query keys of the content blocks. */
export const contentKeys = { block: (block: 'announcement' | 'resources' | 'welcome') => ['content', block] as const };

/** A dashboard block; `data` is undefined until it is in, null when the built-in one stands in. */
export const useAnnouncement = () => useQuery({ queryKey: contentKeys.block('announcement'), queryFn: contentApi.announcement, ...ONE_SHOT });
export const useResources = () => useQuery({ queryKey: contentKeys.block('resources'), queryFn: contentApi.resources, ...ONE_SHOT });
export const useWelcome = () => useQuery({ queryKey: contentKeys.block('welcome'), queryFn: contentApi.welcome, ...ONE_SHOT });
