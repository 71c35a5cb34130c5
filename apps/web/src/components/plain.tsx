import { useId, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode, type Ref } from 'react';
import themeClasses from './theme.module.css';

/**
 * Mantine's markup without Mantine's code, for the login route (docs/decisions/022-login-and-manage-bundles.md,
 * third round): the elements, class names, data attributes and CSS variables that Mantine's
 * components (9.x) render with the portal's theme, styled by the part of Mantine's stylesheet that
 * the entry carries (`app/login-styles.ts`). Only the variants the login route uses; anything
 * else uses Mantine's own components, inside `components/mantine.tsx`'s provider.
 * `components/plain.test.ts` checks each against the Mantine component it stands for.
 */

/** Mantine's `rem()`: pixels as rem, scaled by the theme. */
export const rem = (px: number) => `calc(${px / 16}rem * var(--mantine-scale))`;

/** Mantine's spacing value: a theme size or pixels. */
const spacing = (gap: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | number) => (typeof gap === 'number' ? rem(gap) : `var(--mantine-spacing-${gap})`);

const vars = (style: Record<string, string | number | undefined>) => style as CSSProperties;

/** Mantine's `Stack`. */
export function Stack({
  gap = 'md',
  align = 'stretch',
  style,
  children,
}: {
  gap?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | number;
  align?: 'stretch' | 'center';
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <div
      style={{ ...vars({ '--stack-gap': spacing(gap), '--stack-align': align, '--stack-justify': 'flex-start' }), ...style }}
      className="m_6d731127 mantine-Stack-root"
    >
      {children}
    </div>
  );
}

/** Mantine's `Group` (centred items). */
export function Group({
  gap = 'md',
  justify = 'flex-start',
  wrap = 'wrap',
  children,
}: {
  gap?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | number;
  justify?: 'flex-start' | 'flex-end';
  wrap?: 'wrap' | 'nowrap';
  children: ReactNode;
}) {
  return (
    <div
      style={vars({ '--group-gap': spacing(gap), '--group-align': 'center', '--group-justify': justify, '--group-wrap': wrap })}
      className="m_4081bf90 mantine-Group-root"
    >
      {children}
    </div>
  );
}

/** Mantine's `Center`, as a `div` (or the element given). */
export function Center({
  component: Element = 'div',
  className,
  ...props
}: ComponentPropsWithoutRef<'div'> & { component?: 'div' | 'header' | 'main' }) {
  return <Element {...props} className={`${className ? `${className} ` : ''}m_4451eb3a mantine-Center-root`} />;
}

/** Mantine's horizontal `Divider`. */
export function Divider({ style }: { style?: CSSProperties }) {
  return (
    <div
      style={style}
      className="m_3eebeb36 mantine-Divider-root"
      data-orientation="horizontal"
      role="separator"
      aria-orientation="horizontal"
    />
  );
}

/** Mantine's `Title` of an order, at a heading size. */
export function Title({
  order,
  size,
  ref,
  children,
}: {
  order: 1 | 2 | 3;
  size?: 'h2';
  ref?: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  const Heading = `h${order}` as const;
  const h = size ?? `h${order}`;
  return (
    <Heading
      ref={ref}
      style={vars({
        '--title-fw': `var(--mantine-${h}-font-weight)`,
        '--title-lh': `var(--mantine-${h}-line-height)`,
        '--title-fz': `var(--mantine-${h}-font-size)`,
      })}
      className="m_8a5d1357 mantine-Title-root"
      data-size={size}
      data-order={order}
    >
      {children}
    </Heading>
  );
}

/** Mantine's `Text`: a paragraph, at the small size or the default. */
export function Text({ size, style, children }: { size?: 'sm'; style?: CSSProperties; children: ReactNode }) {
  return (
    <p
      style={
        size
          ? { ...vars({ '--text-fz': `var(--mantine-font-size-${size})`, '--text-lh': `var(--mantine-line-height-${size})` }), ...style }
          : style
      }
      className="mantine-focus-auto m_b6d8b162 mantine-Text-root"
      data-size={size}
    >
      {children}
    </p>
  );
}

/** The props of Mantine's small `Anchor` (underlined, the theme's default) on an `a` or a router link. */
export const anchorProps = {
  style: vars({ '--text-fz': 'var(--mantine-font-size-sm)', '--text-lh': 'var(--mantine-line-height-sm)' }),
  className: 'mantine-focus-auto m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root',
  'data-size': 'sm',
  'data-underline': 'always',
} as const;

/** Mantine's spinner (`Loader`, the oval), at the size given or the default. */
export function Loader({ style, ...props }: ComponentPropsWithoutRef<'span'>) {
  return <span {...props} style={style} className="m_b34414df m_5ae2e3c mantine-Loader-root" />;
}

/** Mantine's light `Alert` of a colour, with its icon and an optional title. */
export function Alert({
  color,
  icon,
  title,
  titleStyle,
  role,
  children,
}: {
  color: 'red' | 'green';
  icon: ReactNode;
  title?: ReactNode;
  titleStyle?: CSSProperties;
  role?: 'alert' | 'status';
  children: ReactNode;
}) {
  const id = `mantine-${useId()}`;
  return (
    <div
      style={vars({
        '--alert-bg': `var(--mantine-color-${color}-light)`,
        '--alert-color': `var(--mantine-color-${color}-light-color)`,
        '--alert-bd': `${rem(1)} solid transparent`,
      })}
      className="m_66836ed3 mantine-Alert-root"
      data-variant="light"
      id={id}
      role={role}
      aria-describedby={`${id}-body`}
      aria-labelledby={title ? `${id}-title` : undefined}
    >
      <div className="m_a5d60502 mantine-Alert-wrapper">
        <div className="m_667f2a6a mantine-Alert-icon">{icon}</div>
        <div className="m_667c2793 mantine-Alert-body">
          {title && (
            <div className="m_6a03f287 mantine-Alert-title" style={titleStyle}>
              <span id={`${id}-title`} className="m_698f4f23 mantine-Alert-label">
                {title}
              </span>
            </div>
          )}
          <div id={`${id}-body`} className="m_7fa78076 mantine-Alert-message" data-variant="light">
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}

/** Mantine's filled `Button` of the primary colour, full width or not; while `loading`, disabled with a spinner. */
export function Button({
  type = 'button',
  loading = false,
  fullWidth = false,
  onClick,
  children,
}: {
  type?: 'button' | 'submit';
  loading?: boolean;
  fullWidth?: boolean;
  onClick?: () => void;
  children: ReactNode;
}) {
  return (
    <button
      style={vars({ '--button-color': 'var(--mantine-color-white)' })}
      className={`mantine-focus-auto ${loading ? '' : 'mantine-active '}m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root`}
      data-loading={loading || undefined}
      data-block={fullWidth || undefined}
      type={type}
      disabled={loading || undefined}
      onClick={onClick}
    >
      {loading && (
        <span
          style={{
            transitionProperty: 'transform, opacity',
            WebkitBackfaceVisibility: 'hidden',
            transitionDuration: '150ms',
            transitionTimingFunction: 'ease',
            transformOrigin: 'center',
            opacity: 1,
            transform: `translate(-50%, calc(-50% + ${rem(1)}))`,
          }}
          className="m_a25b86ee mantine-Button-loader"
          aria-hidden="true"
        >
          <Loader style={vars({ '--loader-size': 'calc(var(--button-height) / 1.8)', '--loader-color': 'var(--button-color)' })} />
        </span>
      )}
      <span className="m_80f1301b mantine-Button-inner">
        <span className="m_811560b9 mantine-Button-label" data-loading={loading || undefined}>
          {children}
        </span>
      </span>
    </button>
  );
}

/**
 * The label, the field and the error of Mantine's `TextInput` or `NativeSelect` (`InputWrapper`
 * with `Input`), at size `sm` or `xs`; `field` renders the input or select with the props given.
 */
export function InputField({
  kind,
  label,
  required = false,
  error,
  size = 'sm',
  style,
  leftSection,
  rightSection,
  field,
}: {
  kind: 'TextInput' | 'NativeSelect';
  label: ReactNode;
  required?: boolean;
  error?: ReactNode;
  size?: 'sm' | 'xs';
  style?: CSSProperties;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  field: (props: {
    className: string;
    'data-variant': 'default';
    'data-error'?: true;
    'aria-invalid'?: true;
    'aria-describedby'?: string;
    id: string;
    required?: boolean;
  }) => ReactNode;
}) {
  const id = `mantine-${useId()}`;
  const invalid = error ? true : undefined;
  return (
    <div style={style} className={`m_46b77525 mantine-InputWrapper-root mantine-${kind}-root`} data-size={size} data-error={invalid}>
      <label
        style={vars({ '--input-label-size': `var(--mantine-font-size-${size})` })}
        className={`m_8fdc1311 mantine-InputWrapper-label mantine-${kind}-label`}
        data-size={size}
        data-required={required || undefined}
        htmlFor={id}
        id={`${id}-label`}
      >
        {label}
        {required && (
          <span className={`m_78a94662 mantine-InputWrapper-required mantine-${kind}-required`} aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      <div
        style={vars({
          '--input-margin-bottom': error ? 'calc(var(--mantine-spacing-xs) / 2)' : undefined,
          '--input-height': `var(--input-height-${size})`,
          '--input-fz': `var(--mantine-font-size-${size})`,
          '--input-right-section-pointer-events': rightSection ? 'none' : undefined,
        })}
        className={`m_6c018570 mantine-Input-wrapper mantine-${kind}-wrapper`}
        data-variant="default"
        data-size={size}
        data-error={invalid}
        data-pointer={kind === 'NativeSelect' || undefined}
        data-with-right-section={rightSection ? true : undefined}
        data-with-left-section={leftSection ? true : undefined}
      >
        {leftSection && (
          <div data-position="left" className={`m_82577fc2 mantine-Input-section mantine-${kind}-section`}>
            {leftSection}
          </div>
        )}
        {field({
          className: `${themeClasses.input} m_8fb7ebe7 mantine-Input-input mantine-${kind}-input`,
          'data-variant': 'default',
          'data-error': invalid,
          required: required || undefined,
          'aria-invalid': invalid,
          'aria-describedby': error ? `${id}-error` : undefined,
          id,
        })}
        {rightSection && (
          <div data-position="right" className={`m_82577fc2 mantine-Input-section mantine-${kind}-section`}>
            {rightSection}
          </div>
        )}
      </div>
      {error && (
        <p
          style={vars({ '--input-error-size': `calc(var(--mantine-font-size-${size}) - ${rem(2)})` })}
          className={`m_8f816625 mantine-InputWrapper-error mantine-${kind}-error`}
          data-size={size}
          id={`${id}-error`}
        >
          {error}
        </p>
      )}
    </div>
  );
}

/** The chevron of Mantine's `NativeSelect` (its `ComboboxChevron`) at size xs. */
export function NativeSelectChevron() {
  return (
    <svg
      style={vars({ '--combobox-chevron-size': 'var(--combobox-chevron-size-xs)' })}
      className="m_2943220b mantine-ComboboxChevron-chevron"
      data-size="xs"
      data-combobox-chevron="true"
      viewBox="0 0 15 15"
      fill="none"
      xmlns="http://www.w3.org/2000/svg"
    >
      <path
        d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}
