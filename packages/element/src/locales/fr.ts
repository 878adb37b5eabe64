import type { Messages } from '../messages.js';

/** French: `FormEmbedElement.messages = fr`, or one element's `messages`. */
const fr: Readonly<Messages> = {
  loading: 'Chargement du formulaire…',
  retrying: 'Nouvelle tentative…',
  offline: 'Vous êtes hors ligne. En attente de connexion…',
  storm: 'Impossible de se connecter au formulaire après plusieurs tentatives.',
  retry: 'Réessayer',
  lapsed:
    'Votre session a expiré et le formulaire a été rechargé. Vous devrez peut-être ressaisir les informations non encore envoyées.',
  dismiss: 'Fermer',
  frame: 'Formulaire intégré',
  sign_in_required: 'Connectez-vous pour ouvrir ce formulaire.',
  unavailable: 'Le formulaire est indisponible pour le moment.',
  not_found: 'Ce formulaire n’est pas disponible.',
  forbidden: 'Votre compte n’a pas accès à ce formulaire.',
  invalid_request: 'Ce formulaire n’est pas configuré correctement.',
  unknown: 'Une erreur s’est produite.',
};
export default fr;
