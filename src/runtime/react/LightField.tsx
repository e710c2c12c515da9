/**
 * A labelled control of a small form (the search bar, the login page): the label, the control and its message,
 * laid out as antd's form items are. Why not antd's Form: it brings its field store, rule engine and scroll helpers
 * (≈ 22 kB gzip) to every list and to the login page, which keep a few values and one rule (required) each
 * (issue 13). The dialogs' forms (rjsf) and the other forms keep antd's Form.
 *
 * The caller holds the values; the control gets `controlProps(id, error)`: its id (the label's target), its error
 * status, and the message it is described by.
 */
import { useState, type CSSProperties, type ReactNode } from 'react';
import './lightField.css';

export interface LightFieldProps {
  /** The control's id: the label points at it and the message is named after it. */
  id: string;
  label?: ReactNode;
  required?: boolean;
  /** The message under the control; the field shows its error state while there is one. */
  error?: string;
  style?: CSSProperties;
  children: ReactNode;
}

export function LightField({ id, label, required, error, style, children }: LightFieldProps) {
  return (
    <div className={error ? 'light-field light-field-error' : 'light-field'} style={style}>
      {label !== undefined && (
        <label htmlFor={id} className={required ? 'light-field-label light-field-required' : 'light-field-label'}>
          {label}
        </label>
      )}
      <div className="light-field-control">
        {children}
        {error && (
          <div id={`${id}-message`} className="light-field-message" role="alert">
            {error}
          </div>
        )}
      </div>
    </div>
  );
}

/** What the control of a LightField takes: its id, antd's error status, and the accessible link to its message. */
export function controlProps(id: string, error?: string): { id: string; status?: 'error'; 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return error ? { id, status: 'error', 'aria-invalid': true, 'aria-describedby': `${id}-message` } : { id };
}

/** Whether a value fails a `required` rule (as antd's: empty string, whitespace, empty list, nothing). */
export function isBlank(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0 || v.every((x) => x === null || x === undefined || x === '');
  return false;
}

/**
 * The `required` rule of a light form, as antd's Form shows it: no message until the first submit, then a message
 * under every field still blank, which goes as the field is filled. `rules`: field → message (an i18n key) for the
 * required fields. `errorOf` gives a field's message key; `check` (on submit) says whether every rule holds.
 */
export function useRequiredRule<K extends string>(values: Partial<Record<K, unknown>>, rules: Partial<Record<K, string>>) {
  const [checked, setChecked] = useState(false);
  const failing = (k: K) => !!rules[k] && isBlank(values[k]);
  return {
    errorOf: (k: K): string | undefined => (checked && failing(k) ? rules[k] : undefined),
    check: (): boolean => {
      setChecked(true);
      return !(Object.keys(rules) as K[]).some(failing);
    },
    /** Back to no messages (the form was reset). */
    clear: () => setChecked(false),
  };
}
