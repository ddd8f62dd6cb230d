import type { dashboardEn } from './en.js';
import type { Translation } from '../translation.js';

export const dashboardEs: Translation<typeof dashboardEn> = {
  'dashboard.home.title': 'Entra en tu escuela',
  'dashboard.home.heading': 'Busca tu escuela',
  'dashboard.home.lead': 'Entra una vez y abre todas las apps de tu escuela.',
  'dashboard.home.cancelled': 'No has entrado. Busca tu escuela para probar otra vez.',
  'dashboard.home.noMatch': 'Ninguna escuela coincide con «{query}». Revisa cómo se escribe o pregunta a tu profe el nombre de tu escuela.',
  'dashboard.title': 'Apps de {school}',
  'dashboard.hello': 'Hola, {name}',
  'dashboard.signOut': 'Salir',
  'dashboard.yourApps': 'Tus apps',
  'dashboard.noApps': '{school} todavía no ha añadido apps para ti. Pregunta a tu profe.',
  'dashboard.formExpired.title': 'Prueba otra vez',
  'dashboard.formExpired.text': 'Esta página ha estado abierta demasiado tiempo. Vuelve a tus apps y prueba otra vez.',
  'dashboard.notYourApp.title': 'No es una de tus apps',
  'dashboard.notYourApp.text': 'Esta app no está en tu página. Vuelve a tus apps y elige otra.',
};
