import type { Messages } from '../messages.js';

/**
 * Arabic, written right to left: `FormEmbedElement.messages = ar`, or one element's `messages`.
 * Mark the element or an ancestor `lang="ar" dir="rtl"`, as an Arabic page does.
 */
const ar: Readonly<Messages> = {
  loading: 'جارٍ تحميل النموذج…',
  retrying: 'جارٍ إعادة المحاولة…',
  offline: 'لا يوجد اتصال بالإنترنت. في انتظار الاتصال…',
  storm: 'تعذّر تسجيل الدخول إلى النموذج بعد عدة محاولات.',
  retry: 'إعادة المحاولة',
  lapsed: 'انتهت صلاحية الجلسة وأُعيد تحميل النموذج. قد يلزم إعادة إدخال البيانات التي لم تُرسَل بعد.',
  dismiss: 'إغلاق',
  frame: 'نموذج مضمَّن',
  sign_in_required: 'يلزم تسجيل الدخول لفتح هذا النموذج.',
  unavailable: 'النموذج غير متاح حاليًا.',
  not_found: 'هذا النموذج غير متاح.',
  forbidden: 'ليس لحسابك حق الوصول إلى هذا النموذج.',
  invalid_request: 'هذا النموذج غير مُعَدّ بشكل صحيح.',
  unknown: 'حدث خطأ ما.',
};
export default ar;
