import type { Messages } from '../messages.js';

/** Spanish: `FormEmbedElement.messages = es`, or one element's `messages`. */
const es: Readonly<Messages> = {
  loading: 'Cargando el formulario…',
  retrying: 'Reintentando…',
  offline: 'No tienes conexión. Esperando a que se restablezca…',
  storm: 'No se ha podido iniciar sesión en el formulario tras varios intentos.',
  retry: 'Reintentar',
  lapsed:
    'Tu sesión ha caducado y el formulario se ha vuelto a cargar. Puede que tengas que volver a introducir los datos que aún no habías enviado.',
  dismiss: 'Cerrar',
  frame: 'Formulario incrustado',
  sign_in_required: 'Inicia sesión para abrir este formulario.',
  unavailable: 'El formulario no está disponible en este momento.',
  not_found: 'Este formulario no está disponible.',
  forbidden: 'Tu cuenta no tiene acceso a este formulario.',
  invalid_request: 'Este formulario no está configurado correctamente.',
  unknown: 'Se ha producido un error.',
};
export default es;
