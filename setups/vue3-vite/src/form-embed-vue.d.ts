// form-embed-vue.d.ts
import type { FormEmbedElement } from '@form-embed/element';
import type { HTMLAttributes, ReservedProps } from 'vue';

type Properties =
  | 'endpoint'
  | 'loading'
  | 'messages'
  | 'fetchSession'
  | 'requestInit'
  | 'allowedEndpointOrigins';
type Events = 'form-embed-session' | 'form-embed-remint' | 'form-embed-error' | 'form-embed-notice';
type Camel<S> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type Listeners = {
  [K in Events as `on${Capitalize<Camel<K>>}`]?: (event: HTMLElementEventMap[K]) => void;
};
type Attributes = { formId?: string; coreSlug?: string; frameTitle?: string };
type Props = Partial<Pick<FormEmbedElement, Properties>>;

declare module 'vue' {
  interface GlobalComponents {
    'form-embed': new () => FormEmbedElement & {
      $props: ReservedProps & HTMLAttributes & Attributes & Props & Listeners;
    };
  }
}
