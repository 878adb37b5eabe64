import type { Messages } from '../messages.js';

/** Korean, in the formal polite style: `FormEmbedElement.messages = ko`, or one element's `messages`. */
const ko: Readonly<Messages> = {
  loading: '양식을 불러오는 중…',
  retrying: '다시 시도하는 중…',
  offline: '오프라인 상태입니다. 연결을 기다리는 중…',
  storm: '여러 번 시도했지만 양식에 로그인하지 못했습니다.',
  retry: '다시 시도',
  lapsed:
    '세션이 만료되어 양식을 다시 불러왔습니다. 아직 제출하지 않은 내용은 다시 입력해야 할 수 있습니다.',
  dismiss: '닫기',
  frame: '포함된 양식',
  sign_in_required: '이 양식을 열려면 로그인하세요.',
  unavailable: '지금은 양식을 사용할 수 없습니다.',
  not_found: '이 양식은 사용할 수 없습니다.',
  forbidden: '현재 계정으로는 이 양식을 열 수 없습니다.',
  invalid_request: '이 양식이 올바르게 설정되지 않았습니다.',
  unknown: '문제가 발생했습니다.',
};
export default ko;
