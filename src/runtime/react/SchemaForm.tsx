/**
 * The rjsf form of a dialog model: antd theme, ajv8 with our formats, the document's messages, errors
 * shown on blur for the fields the user has left (all of them once a submit is tried).
 */
import { forwardRef, useCallback, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { Grid } from 'antd';
import { withTheme } from '@rjsf/core';
import { isNarrow } from './responsive.js';
import { Theme as AntdTheme } from '@rjsf/antd';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import type { ScreenDocument } from '../../shared/document.js';
import { CUSTOM_FORMATS } from '../../shared/form.js';
import { createTransformErrors, errorsOfTouched, fieldOfId, type DialogModel, type DictMap, type JsonObject } from '../model/index.js';
import { useRuntime } from './context.js';
import { formWidgets, GridObjectFieldTemplate, type RuntimeFormContext } from './widgets.js';

const ThemedForm = withTheme<JsonObject>(AntdTheme);

/** One validator for every dialog (ajv compiles and caches per schema). */
export const validator = customizeValidator<JsonObject>({ customFormats: CUSTOM_FORMATS });

const templates = { ObjectFieldTemplate: GridObjectFieldTemplate };

export interface SchemaFormHandle {
  /** Validate everything and, when valid, resolve with the form data; otherwise show all errors and resolve null. */
  submit(): JsonObject | null;
  /** The files chosen in `file` widgets. */
  files(): Record<string, File>;
}

export interface SchemaFormProps {
  doc: ScreenDocument;
  model: DialogModel;
  initial: JsonObject;
  dicts: DictMap;
  readonly?: boolean;
  /** Errors the server sent back (rjsf error schema by field). */
  serverErrors?: Record<string, { __errors: string[] }>;
  onChange?: (data: JsonObject) => void;
}

export const SchemaForm = forwardRef<SchemaFormHandle, SchemaFormProps>(function SchemaForm(
  { doc, model, initial, dicts, readonly, serverErrors, onChange },
  ref,
) {
  const { t, lang, request } = useRuntime();
  const [formData, setFormData] = useState<JsonObject>(initial);
  const dataRef = useRef(formData);
  const touched = useRef(new Set<string>());
  const showAll = useRef(false);
  const files = useRef<Record<string, File>>({});
  const formRef = useRef<any>(null);
  const narrow = isNarrow(Grid.useBreakpoint());

  const baseTransform = useMemo(() => createTransformErrors(doc, t), [doc, t]);
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => errorsOfTouched(baseTransform(errors), showAll.current ? 'all' : touched.current),
    [baseTransform],
  );

  const formContext: RuntimeFormContext = useMemo(
    () => ({
      dicts,
      lang,
      t,
      request,
      files: files.current,
      readonlyAsDisabled: false,
      // Below 768 px every label sits above its full-width control; English labels get a wider column (and wrap: CSS).
      labelCol: narrow ? { span: 24 } : { flex: lang === 'en' ? '160px' : '120px' },
      // basis 0 so a wide control (range picker, upload) never wraps under its label
      wrapperCol: narrow ? { span: 24 } : { flex: '1 1 0', style: { minWidth: 0 } },
      formData,
      api: doc.resource.api,
    }),
    [dicts, lang, t, request, formData, narrow, doc.resource.api],
  );

  useImperativeHandle(
    ref,
    () => ({
      submit() {
        showAll.current = true;
        const data = dataRef.current;
        const { errors } = validator.validateFormData(data, model.schema as never, undefined, baseTransform as never, model.uiSchema as never);
        if (errors.length) {
          formRef.current?.validateForm?.();
          return null;
        }
        return data;
      },
      files: () => files.current,
    }),
    [model, baseTransform],
  );

  return (
    <ThemedForm
      ref={formRef}
      className={`runtime-form${narrow ? ' runtime-form-narrow' : ''}`}
      schema={model.schema as never}
      uiSchema={model.uiSchema as never}
      formData={formData}
      validator={validator}
      widgets={formWidgets()}
      templates={templates}
      formContext={formContext}
      readonly={readonly}
      liveValidate={readonly ? undefined : 'onBlur'}
      showErrorList={false}
      noHtml5Validate
      // A date range (minItems 2) starts empty, not as [undefined, undefined].
      experimental_defaultFormStateBehavior={{ arrayMinItems: { populate: 'never' } }}
      transformErrors={transformErrors as never}
      extraErrors={serverErrors as ErrorSchema<JsonObject> | undefined}
      onBlur={(id) => {
        touched.current.add(fieldOfId(id));
      }}
      onChange={(e) => {
        const d = (e.formData ?? {}) as JsonObject;
        dataRef.current = d;
        setFormData(d);
        onChange?.(d);
      }}
      onSubmit={() => undefined}
      onError={() => undefined}
    >
      <></>
    </ThemedForm>
  );
});
