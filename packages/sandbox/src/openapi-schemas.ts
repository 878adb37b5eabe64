/**
 * The OpenAPI components' schemas, generated from the protocol's zod schemas (zod's JSON Schema
 * output for OpenAPI 3.0), so the description cannot drift from what is validated. Input mode:
 * an object allows fields the schema does not name, as the service may add fields.
 */
import {
  ClientPageSchema,
  ClientSchema,
  CoreFormListSchema,
  CoreFormSchema,
  FormListSchema,
  FormSchema,
  FormSessionRequestSchema,
  FormSessionSchema,
  OrganisationSchema,
  PlainErrorBodySchema,
  SessionErrorBodySchema,
} from '@form-embed/protocol';
import { type ZodType, z } from 'zod';

/** Each component's name and the zod schema it is generated from. */
export const componentZodSchemas: Readonly<Record<string, ZodType>> = {
  Error: PlainErrorBodySchema,
  SessionError: SessionErrorBodySchema,
  Organisation: OrganisationSchema,
  Client: ClientSchema,
  ClientPage: ClientPageSchema,
  Form: FormSchema,
  FormList: FormListSchema,
  CoreForm: CoreFormSchema,
  CoreFormList: CoreFormListSchema,
  FormSessionRequest: FormSessionRequestSchema,
  FormSession: FormSessionSchema,
};

export type JsonSchema = Record<string, unknown>;

/** `components.schemas`: one schema per name, each referring to the others by `$ref`. */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(componentZodSchemas)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // `$id` is JSON Schema's, not OpenAPI 3.0's: a component is named by its key.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $id: _, ...schema }]) => [id, schema as JsonSchema]),
  );
}
