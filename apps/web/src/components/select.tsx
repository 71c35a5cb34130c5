import { useEffect, type RefObject } from 'react';
import { ComboboxChevron, InputBase, type SelectProps } from '@mantine/core';
import { floating, useOnDemand } from './on-demand';

type Option = { value: string; label: string };

/**
 * Mantine's Select, loaded when its input is first pointed at, focused or touched
 * (./on-demand.ts). Until then a stand-in shows what the closed Select shows: its input with the
 * chosen option's label (or the placeholder) and the chevron, with the same roles; the focus and a
 * click on it pass on to the Select once it is there. Options are `{ value, label }` objects.
 */
export function Select(props: Omit<SelectProps, 'data'> & { data: Option[] }) {
  const { loaded, trigger, standIn } = useOnDemand(floating);
  const showsClear = !!props.clearable && props.value != null;
  useEffect(() => {
    // the clear button is the Select's own: with a value to clear, the Select itself
    if (showsClear && !loaded) standIn.onFocus();
  }, [showsClear, loaded, standIn]);
  if (loaded) return <loaded.Select {...props} ref={trigger as RefObject<HTMLInputElement | null>} />;
  const { data, value, label, placeholder, description, error, size, required, disabled, id } = props;
  const chosen = value == null ? undefined : data.find((o) => o.value === value);
  return (
    <InputBase
      {...standIn}
      ref={trigger as RefObject<HTMLInputElement | null>}
      id={id}
      label={label}
      description={description}
      error={error}
      size={size}
      required={required}
      disabled={disabled}
      placeholder={placeholder}
      value={chosen?.label ?? ''}
      readOnly
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded={false}
      autoComplete="off"
      rightSection={<ComboboxChevron size={size} error={error} />}
      rightSectionPointerEvents="none"
    />
  );
}
