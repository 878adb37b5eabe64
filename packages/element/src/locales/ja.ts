import type { Messages } from '../messages.js';

/** Japanese, in the polite form: `FormEmbedElement.messages = ja`, or one element's `messages`. */
const ja: Readonly<Messages> = {
  loading: 'フォームを読み込んでいます…',
  retrying: '再試行しています…',
  offline: 'オフラインです。接続を待っています…',
  storm: 'フォームへのサインインに何度も失敗しました。',
  retry: '再試行',
  lapsed:
    'セッションの有効期限が切れたため、フォームを再読み込みしました。まだ送信していない内容は、もう一度入力する必要がある場合があります。',
  dismiss: '閉じる',
  frame: '埋め込みフォーム',
  sign_in_required: 'このフォームを開くには、サインインしてください。',
  unavailable: 'フォームは一時的に利用できません。',
  not_found: 'このフォームは利用できません。',
  forbidden: 'お使いのアカウントでは、このフォームを開けません。',
  invalid_request: 'このフォームは正しく設定されていません。',
  unknown: '問題が発生しました。',
};
export default ja;
