// The records the catalogue reads from the service, and the envelopes of their lists: what
// `CatalogueReads` asks `ListedRecords` to read, one record at a time.
import {
  AuthTypeSchema,
  AvailabilitySchema,
  ClientEnvironmentSchema,
  ClientPageSchema,
  ClientSchema,
  CoreFormSchema,
  FormSchema,
} from '@form-embed/protocol';
import { z } from 'zod';
import type { RecordKind } from './listed-records.js';

/**
 * The service's records as the middleware reads them, one at a time
 * (docs/contract.md#designer-forms): a record that is not in the documented shape costs the list
 * that record alone, and a field the contract gives as a closed enum is read as any string where
 * nothing the middleware decides reads it. Clients branch on `embeddable`, not on authType, and
 * a Core form is offered by its `embeddable` (true exactly when public) and its client overrides,
 * not by its availability; nothing reads a client's environment.
 */
export const designerForms: RecordKind<ListedForm> = {
  name: 'form',
  ref: 'id',
  schema: FormSchema.extend({ authType: AuthTypeSchema }),
  open: {
    authType: {
      known: FormSchema.shape.authType.options,
      so: 'it is offered or not by embeddable, as any other',
    },
  },
};
export const coreForms: RecordKind<ListedCoreForm> = {
  name: 'Core form',
  ref: 'slug',
  schema: CoreFormSchema.extend({ availability: z.string() }),
  open: {
    availability: {
      known: AvailabilitySchema.options,
      so: 'it is offered or not by embeddable and its client overrides, as any other',
    },
  },
};
export const clients: RecordKind<ListedClient> = {
  name: 'client',
  ref: 'id',
  schema: ClientSchema.extend({ environment: z.string() }),
  open: {
    environment: {
      known: ClientEnvironmentSchema.options,
      so: 'nothing the middleware does reads environment, so it is read as any other',
    },
  },
};
export type ListedForm = Omit<z.infer<typeof FormSchema>, 'authType'> & { authType: string };
export type ListedCoreForm = Omit<z.infer<typeof CoreFormSchema>, 'availability'> & {
  availability: string;
};
export type ListedClient = Omit<z.infer<typeof ClientSchema>, 'environment'> & {
  environment: string;
};

/** The envelopes of the lists, their records read one at a time by `ListedRecords`. */
export const FormListEnvelope = z.object({ forms: z.array(z.unknown()) });
export const ClientPageEnvelope = ClientPageSchema.extend({ clients: z.array(z.unknown()) });
