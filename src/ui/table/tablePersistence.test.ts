import { describe, expect, it } from 'vitest';
import { loadControls, saveControls, tableStorageKey } from './tablePersistence';
import { defaultControls } from './tableQuery';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, v),
  };
}

describe('table persistence', () => {
  it('round-trips page, perPage, searchQuery, sort and selectedDynamicCols per table id', () => {
    const storage = memoryStorage();
    const controls = { page: 4, perPage: 200, searchQuery: 'lovelace', sort: { field: 'email', order: 'DESC' as const }, selectedDynamicCols: ['city'] };
    saveControls('users', controls, storage);
    expect(JSON.parse(storage.getItem(tableStorageKey('users')) ?? '')).toEqual(controls);
    expect(loadControls('users', defaultControls(), ['city'], storage)).toEqual(controls);
    // Another table keeps its own settings.
    expect(loadControls('companies', defaultControls(), ['city'], storage)).toEqual(defaultControls());
  });

  it('falls back to the defaults on a corrupt entry or without storage', () => {
    const storage = memoryStorage();
    storage.setItem(tableStorageKey('users'), '{not json');
    expect(loadControls('users', defaultControls(), [], storage)).toEqual(defaultControls());
    expect(loadControls('users', defaultControls(), [], null)).toEqual(defaultControls());
    expect(() => saveControls('users', defaultControls(), null)).not.toThrow();
  });

  it('survives a storage that throws when full', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => saveControls('users', defaultControls(), storage)).not.toThrow();
  });
});
