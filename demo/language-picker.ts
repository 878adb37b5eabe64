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
 * The console's Language list (`?lang=`, kept in the address): every element's messages from the
 * pack picked, the embed's slot marked with its language and direction, and `repaint` called so
 * that an element already on the page says it at once.
 */
export function pickLanguage(select: HTMLSelectElement, slot: HTMLElement, repaint: () => void) {
  const use = (lang: string) => {
    FormEmbedElement.messages = packs[lang] ?? messages;
    // The element's text is in that language now: a screen reader should pronounce it so, and an
    // Arabic page lays it out right to left.
    slot.lang = lang in packs ? lang : 'en';
    slot.dir = lang === 'ar' ? 'rtl' : 'ltr';
    repaint();
  };
  const asked = askedFor('lang') ?? 'en';
  select.value = asked in packs ? asked : 'en';
  use(select.value);
  select.addEventListener('change', () => {
    use(select.value);
    keepInAddress({ lang: select.value });
  });
}
