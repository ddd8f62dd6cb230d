import type { Translation } from '../translation.js';
import type { emojiEn } from './en.js';

export const emojiEs: Translation<typeof emojiEn> = {
  'emoji.title': 'Entra en {school}',
  'emoji.prompt': 'Escribe tu usuario y toca tus dibujos secretos',
  'emoji.promptPictures': 'Toca tus dibujos secretos',
  'emoji.hello': '¡Hola, {name}! Toca tus dibujos secretos',
  'emoji.username': 'Tu usuario',
  'emoji.usernameFirst': 'Primero escribe tu usuario.',
  'emoji.tapAll': 'Toca tus {count} dibujos y luego Entrar.',
  'emoji.signIn': 'Entrar',
  'emoji.undo': 'Borrar el último dibujo',
  'emoji.undoShort': 'Borrar',
  'emoji.chosen': '{count} de {total} dibujos elegidos',
  'emoji.slots': 'Tus dibujos',
  'emoji.keyboard': 'Teclado de emojis',
  'emoji.pages': 'Tipos de dibujos',
  'emoji.hint': 'Usa las flechas para moverte entre los dibujos.',
  'emoji.page.animals': 'Animales',
  'emoji.page.food': 'Comida',
  'emoji.page.nature': 'Naturaleza',
  'emoji.page.things': 'Cosas',
};
