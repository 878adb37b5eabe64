import type { Messages } from '../messages.js';

/** Portuguese as written in Brazil: `FormEmbedElement.messages = ptBR`, or one element's `messages`. */
const ptBR: Readonly<Messages> = {
  loading: 'Carregando o formulário…',
  retrying: 'Tentando novamente…',
  offline: 'Você está offline. Aguardando a conexão…',
  storm: 'O login no formulário falhou várias vezes.',
  retry: 'Tentar novamente',
  lapsed:
    'Sua sessão expirou e o formulário foi recarregado. Talvez seja preciso preencher novamente os dados que ainda não foram enviados.',
  dismiss: 'Fechar',
  frame: 'Formulário incorporado',
  sign_in_required: 'Faça login para abrir este formulário.',
  unavailable: 'O formulário está indisponível no momento.',
  not_found: 'Este formulário não está disponível.',
  forbidden: 'Sua conta não tem acesso a este formulário.',
  invalid_request: 'Este formulário não está configurado corretamente.',
  unknown: 'Algo deu errado.',
};
export default ptBR;
