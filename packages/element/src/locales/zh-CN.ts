import type { Messages } from '../messages.js';

/** Chinese in simplified characters, as written in mainland China: `FormEmbedElement.messages = zhCN`. */
const zhCN: Readonly<Messages> = {
  loading: '正在加载表单…',
  retrying: '正在重试…',
  offline: '您已离线，正在等待连接…',
  storm: '多次尝试后，表单仍无法完成登录。',
  retry: '重试',
  lapsed: '您的会话已超时，表单已重新加载。尚未提交的内容可能需要重新填写。',
  dismiss: '关闭',
  frame: '嵌入式表单',
  sign_in_required: '请登录以打开此表单。',
  unavailable: '表单暂时不可用。',
  not_found: '此表单不可用。',
  forbidden: '您的账户无权打开此表单。',
  invalid_request: '此表单的设置不正确。',
  unknown: '出现了问题。',
};
export default zhCN;
