import { TextInput } from '@mantine/core';

/** A day a list begins or ends on (the browser's date field); `min` and `max` are the other end, when set. */
export function DayFilter({
  label,
  value,
  onChange,
  min,
  max,
  error,
}: {
  label: string;
  value: string;
  onChange: (day: string) => void;
  min?: string;
  max?: string;
  error?: string | undefined;
}) {
  return (
    <TextInput
      type="date"
      label={label}
      value={value}
      min={min || undefined}
      max={max || undefined}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
