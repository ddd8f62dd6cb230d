import type { dashboardEn } from './en.js';
import type { Translation } from '../translation.js';

export const dashboardFr: Translation<typeof dashboardEn> = {
  'dashboard.home.title': 'Connecte-toi à ton école',
  'dashboard.home.heading': 'Trouve ton école',
  'dashboard.home.lead': 'Connecte-toi une fois, puis ouvre toutes les applis de ton école.',
  'dashboard.home.cancelled': 'Tu ne t’es pas connecté. Trouve ton école pour réessayer.',
  'dashboard.home.noMatch': 'Aucune école ne correspond à « {query} ». Vérifie l’orthographe, ou demande le nom de ton école à ton enseignant.',
  'dashboard.title': 'Applis de {school}',
  'dashboard.hello': 'Bonjour, {name}',
  'dashboard.signOut': 'Me déconnecter',
  'dashboard.yourApps': 'Tes applis',
  'dashboard.noApps': '{school} n’a pas encore ajouté d’applis pour toi. Demande à ton enseignant.',
  'dashboard.formExpired.title': 'Réessaie',
  'dashboard.formExpired.text': 'Cette page est restée ouverte trop longtemps. Reviens à tes applis et réessaie.',
  'dashboard.notYourApp.title': 'Ce n’est pas une de tes applis',
  'dashboard.notYourApp.text': 'Cette appli n’est pas sur ta page. Reviens à tes applis et choisis-en une autre.',
};
