import type { refusalEn } from './en.js';
import type { Translation } from '../translation.js';

export const refusalEs: Translation<typeof refusalEn> = {
  'refusal.goBack': 'Volver a {app}',
  'refusal.askAdult': 'Si crees que tu clase debería tenerla, pregunta a tu profe o al equipo de informática de tu escuela.',
  'refusal.yourSchool': 'tu escuela',
  'refusal.notConnected.title': 'No disponible en tu escuela',
  'refusal.notConnected.heading': 'Esta app no está disponible en tu escuela',
  'refusal.notConnected.text': '{app} no es una de las apps que usa {school}, así que aquí no puedes entrar en ella.',
  'refusal.notConnected.textForAccount': '{app} no es una de las apps que {school} usa para tu cuenta, así que aquí no puedes entrar en ella.',
  'refusal.forIt': 'Para el equipo de informática de tu escuela',
  'refusal.notConnected.adults': '{school} no ha conectado {app}.',
  'refusal.notConnected.adultsForAccount': '{school} no ha conectado {app} para este tipo de cuenta.',
  'refusal.sandbox.title': 'No disponible para la escuela de pruebas',
  'refusal.sandbox.text': 'La escuela de pruebas sirve para probar apps en desarrollo: sus usuarios de prueba no pueden entrar en esta app.',
  'refusal.forDevelopers': 'Para desarrolladores',
  'refusal.sandbox.adults': 'Solo las apps aún en desarrollo admiten a los usuarios de prueba de la escuela de pruebas.',
  'refusal.development.title': '{app} todavía no está disponible',
  'refusal.development.text': '{app} todavía se está haciendo, y las escuelas aún no pueden usarla.',
  'refusal.forAppDevelopers': 'Para quienes desarrollan la app',
  'refusal.development.adults': 'Esta app aún está en desarrollo: solo la escuela de pruebas puede entrar en ella.',
  'refusal.development.adultsHow': 'Sus usuarios de prueba entran cuando la petición no lleva el parámetro {parameter} o dice {value}.',
};
