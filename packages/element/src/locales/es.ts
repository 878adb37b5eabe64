import type { Messages } from '../messages.js';

/** Spanish: `FormEmbedElement.messages = es`, or one element's `messages`. */
const es: Messages = {
  loading: 'Cargando el formulario…',
  retrying: 'Reintentando…',
  offline: 'No tienes conexión. Esperando…',
  storm: 'El formulario sigue sin poder iniciar tu sesión.',
  retry: 'Reintentar',
  lapsed:
    'Tu sesión caducó y el formulario se volvió a cargar. Puede que tengas que volver a rellenar los datos que aún no se enviaron.',
  dismiss: 'Cerrar',
  frame: 'Formulario incrustado',
  sign_in_required: 'Vuelve a iniciar sesión para abrir este formulario.',
  unavailable: 'El formulario no está disponible en este momento.',
  not_found: 'Este formulario no está disponible.',
  forbidden: 'Tu cuenta no puede abrir este formulario.',
  invalid_request: 'Este formulario no está configurado correctamente.',
  unknown: 'Algo salió mal.',
};
export default es;
