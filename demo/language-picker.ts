import { FormEmbedElement, type Messages, messages } from '@form-embed/element';
import ar from '@form-embed/element/locales/ar';
import de from '@form-embed/element/locales/de';
import es from '@form-embed/element/locales/es';
import fr from '@form-embed/element/locales/fr';
import it from '@form-embed/element/locales/it';
import ja from '@form-embed/element/locales/ja';
import ko from '@form-embed/element/locales/ko';
import nl from '@form-embed/element/locales/nl';
import pl from '@form-embed/element/locales/pl';
import ptBR from '@form-embed/element/locales/pt-BR';
import sv from '@form-embed/element/locales/sv';
import zhCN from '@form-embed/element/locales/zh-CN';
import zhTW from '@form-embed/element/locales/zh-TW';
import { askedFor, keepInAddress } from './console-address.js';

const packs: Record<string, Messages> = {
  en: messages,
  de,
  fr,
  es,
  it,
  nl,
  pl,
  'pt-BR': ptBR,
  sv,
  ar,
  ja,
  ko,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
};

/**
 * Every element's messages from the pack of `lang` (English for one not shipped), and `holders`,
 * the elements or what holds them, marked with its language and direction: a screen reader
 * should pronounce the text so, and an Arabic one is laid out right to left. The page's own text
 * stays English.
 */
export function useLanguage(lang: string | null, ...holders: HTMLElement[]): string {
  const used = lang && lang in packs ? lang : 'en';
  FormEmbedElement.messages = packs[used] ?? messages;
  for (const holder of holders) {
    holder.lang = used;
    holder.dir = used === 'ar' ? 'rtl' : 'ltr';
  }
  return used;
}

/**
 * The console's Language list (`?lang=`, kept in the address, which the other demo pages read):
 * the pack picked, for the embed's slot, and `repaint` called so that an element already on the
 * page says it at once.
 */
export function pickLanguage(select: HTMLSelectElement, slot: HTMLElement, repaint: () => void) {
  select.value = useLanguage(askedFor('lang'), slot);
  repaint();
  select.addEventListener('change', () => {
    useLanguage(select.value, slot);
    repaint();
    keepInAddress({ lang: select.value });
  });
}
