import Autocomplete, { type AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../../domain/constants';
import { useDebouncedCallback } from '../useDebouncedCallback';
import { atMaximum, countProblem, SELECT_DEFAULT_WIDTH, SELECT_LIST_HEIGHT } from './selectRules';

export type SelectValue = string | number;

export interface SelectOption<V extends SelectValue = string> {
  value: V;
  /** Already translated. */
  label: string;
  disabled?: boolean;
}

interface CommonProps<V extends SelectValue> {
  label: string;
  /** Local options; with `loadOptions` they only lend labels to chosen values. */
  options?: readonly SelectOption<V>[];
  /** Remote search, called 500 ms after the user stops typing (and with '' on first open). */
  loadOptions?: (search: string) => Promise<readonly SelectOption<V>[]>;
  width?: number | string;
  listHeight?: number;
  placeholder?: string;
  helperText?: string;
  disabled?: boolean;
}

export interface SingleSelectProps<V extends SelectValue> extends CommonProps<V> {
  multiple?: false;
  value: V | null;
  onChange: (value: V | null) => void;
}

export interface MultiSelectProps<V extends SelectValue> extends CommonProps<V> {
  multiple: true;
  value: readonly V[];
  onChange: (value: V[]) => void;
  min?: number;
  max?: number;
}

export type SelectFieldProps<V extends SelectValue> = SingleSelectProps<V> | MultiSelectProps<V>;

/** The select control of SPEC §5 and §9, on MUI Autocomplete. */
export function SelectField<V extends SelectValue>(props: MultiSelectProps<V>): ReactElement;
// eslint-disable-next-line @typescript-eslint/unified-signatures -- with one union signature TypeScript cannot infer V from a multi call site.
export function SelectField<V extends SelectValue>(props: SingleSelectProps<V>): ReactElement;
export function SelectField<V extends SelectValue>(props: SelectFieldProps<V>): ReactElement {
  const { label, options = [], loadOptions, width = SELECT_DEFAULT_WIDTH, listHeight = SELECT_LIST_HEIGHT, placeholder, helperText, disabled } = props;
  const { t } = useTranslation();
  const [remote, setRemote] = useState<readonly SelectOption<V>[] | null>(null);
  // Labels of every option seen, so chosen values keep their label when the results change.
  const [known, setKnown] = useState<ReadonlyMap<V, SelectOption<V>>>(() => new Map(options.map((o) => [o.value, o])));
  const [loading, setLoading] = useState(false);
  const [touched, setTouched] = useState(false);
  const [input, setInput] = useState('');
  const latestRequest = useRef(0);

  const load = (search: string) => {
    if (!loadOptions) return;
    latestRequest.current += 1;
    const request = latestRequest.current;
    setLoading(true);
    loadOptions(search)
      .then((found) => {
        // An older, slower answer must not replace a newer one.
        if (request !== latestRequest.current) return;
        setRemote(found);
        setKnown((prev) => new Map([...prev, ...found.map((o) => [o.value, o] as const)]));
      })
      .catch(() => {
        if (request === latestRequest.current) setRemote([]);
      })
      .finally(() => {
        if (request === latestRequest.current) setLoading(false);
      });
  };
  const debouncedLoad = useDebouncedCallback(load, TIMINGS.searchDebounceMs);

  const shownOptions = loadOptions ? (remote ?? []) : options;
  const toOption = (v: V): SelectOption<V> => known.get(v) ?? options.find((o) => o.value === v) ?? { value: v, label: String(v) };
  const values: readonly V[] = props.multiple ? props.value : props.value === null ? [] : [props.value];
  const problem = props.multiple && touched ? countProblem(values.length, props.min, props.max) : null;
  const full = props.multiple === true && atMaximum(values.length, props.max);
  const message = problem ? t(problem.kind === 'min' ? 'widgets.select.min' : 'widgets.select.max', { count: problem.limit }) : helperText;

  const shared = {
    options: shownOptions as SelectOption<V>[],
    disabled,
    loading,
    loadingText: t('widgets.select.loading'),
    noOptionsText: t('widgets.select.noOptions'),
    openText: t('widgets.select.open'),
    closeText: t('widgets.select.close'),
    clearText: t('widgets.select.clear'),
    getOptionLabel: (o: SelectOption<V>) => o.label,
    isOptionEqualToValue: (o: SelectOption<V>, v: SelectOption<V>) => o.value === v.value,
    getOptionDisabled: (o: SelectOption<V>) => Boolean(o.disabled) || (full && !values.includes(o.value)),
    // The server filters remote results already.
    filterOptions: loadOptions ? (o: SelectOption<V>[]) => o : undefined,
    inputValue: input,
    onInputChange: (_: unknown, text: string, reason: string) => {
      setInput(text);
      if (reason === 'input') debouncedLoad.call(text);
    },
    onOpen: () => {
      if (remote === null) load('');
    },
    onBlur: () => setTouched(true),
    slotProps: { listbox: { style: { maxHeight: listHeight } } },
    sx: { width, maxWidth: '100%' },
    renderInput: (params: AutocompleteRenderInputParams) => (
      <TextField
        {...params}
        label={label}
        placeholder={values.length ? undefined : placeholder}
        error={Boolean(problem)}
        helperText={message}
      />
    ),
  };

  if (props.multiple) {
    const { onChange } = props;
    return (
      <Autocomplete
        {...shared}
        multiple
        disableCloseOnSelect
        value={values.map(toOption)}
        onChange={(_: unknown, next: SelectOption<V>[]) => {
          setTouched(true);
          onChange(next.map((o) => o.value));
        }}
      />
    );
  }
  const { onChange } = props;
  return <Autocomplete {...shared} value={props.value === null ? null : toOption(props.value)} onChange={(_: unknown, next: SelectOption<V> | null) => onChange(next ? next.value : null)} />;
}
