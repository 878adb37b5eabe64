import type { Messages } from '../messages.js';

/** Chinese in traditional characters, as written in Taiwan: `FormEmbedElement.messages = zhTW`. */
const zhTW: Readonly<Messages> = {
  loading: '正在載入表單…',
  retrying: '正在重試…',
  offline: '您已離線，正在等待連線…',
  storm: '多次嘗試後，表單仍無法完成登入。',
  retry: '重試',
  lapsed: '您的工作階段已逾時，表單已重新載入。尚未送出的內容可能需要重新填寫。',
  dismiss: '關閉',
  frame: '內嵌表單',
  sign_in_required: '請登入以開啟此表單。',
  unavailable: '表單暫時無法使用。',
  not_found: '此表單無法使用。',
  forbidden: '您的帳戶無權開啟此表單。',
  invalid_request: '此表單的設定不正確。',
  unknown: '發生錯誤。',
};
export default zhTW;
