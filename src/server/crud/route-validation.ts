/**
 * The generic routes carry their JSON Schemas the Fastify way: `schema.querystring` / `schema.body` from
 * route-schemas.ts sit on the route itself, Fastify checks them before the handler, and the OpenAPI document is
 * read from the routes. The route's validator applies them as BladeX clients need, which plain ajv coercion would
 * not: a numeric string is a number ("enableFlag": "1"), null and "" clear a field (ajv would coerce null to 0),
 * unknown query keys are ignored (BladeX's Query convention). A type error names its field with the form's own
 * message (the app's error handler translates `DocumentTypeError`); limits, formats, dictionaries and conditions
 * stay with the submit's validation (crud/validate.ts), which has the record as it will be saved.
 */
import type { FastifySchema } from 'fastify';
import type { ScreenDocument } from '../../shared/document.js';
import { wrongTypeFields } from '../lib/submit-types.js';
import { routeSchema, type GenericRouteKind } from './route-schemas.js';

/** A submit body whose fields have the wrong JSON type; the error handler turns it into the per-field 400. */
export class DocumentTypeError extends Error {
  statusCode = 400;
  constructor(
    public doc: ScreenDocument,
    public fields: string[],
  ) {
    super(`wrong type: ${fields.join(', ')}`);
  }
}

type Validate = (data: unknown) => { value?: unknown; error?: Error };

function validatorFor(doc: ScreenDocument, httpPart: string | undefined): Validate {
  if (httpPart !== 'body') return (data) => ({ value: data });
  return (data) => {
    // a body that is not an object is the handler's to refuse (its own message); fields are checked here
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { value: data };
    const fields = wrongTypeFields(doc, data as Record<string, unknown>);
    return fields.length ? { error: new DocumentTypeError(doc, fields) } : { value: data };
  };
}

/** Route options of one generic route: its schema (querystring/body; the response is described in OpenAPI only). */
export function documentRoute(doc: ScreenDocument, kind: GenericRouteKind) {
  const { querystring, body, summary } = routeSchema(doc, kind);
  const schema: FastifySchema = { summary, ...(querystring ? { querystring } : {}), ...(body ? { body } : {}) };
  return {
    schema,
    config: { documentSchema: true },
    validatorCompiler: ({ httpPart }: { httpPart?: string }) => validatorFor(doc, httpPart),
  };
}
