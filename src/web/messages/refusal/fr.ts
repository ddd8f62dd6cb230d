import type { refusalEn } from './en.js';
import type { Translation } from '../translation.js';

export const refusalFr: Translation<typeof refusalEn> = {
  'refusal.goBack': 'Revenir à {app}',
  'refusal.askAdult': 'Si tu penses que ta classe devrait l’avoir, demande à ton enseignant ou à l’équipe informatique de ton école.',
  'refusal.yourSchool': 'ton école',
  'refusal.notConnected.title': 'Pas disponible dans ton école',
  'refusal.notConnected.heading': 'Cette appli n’est pas disponible dans ton école',
  'refusal.notConnected.text': '{app} ne fait pas partie des applis de {school}, alors tu ne peux pas t’y connecter ici.',
  'refusal.notConnected.textForAccount': '{app} ne fait pas partie des applis de {school} pour ton compte, alors tu ne peux pas t’y connecter ici.',
  'refusal.forIt': 'Pour l’équipe informatique de ton école',
  'refusal.notConnected.adults': '{school} n’a pas connecté {app}.',
  'refusal.notConnected.adultsForAccount': '{school} n’a pas connecté {app} pour ce type de compte.',
  'refusal.sandbox.title': 'Pas disponible pour l’école de test',
  'refusal.sandbox.text': 'L’école de test sert à essayer des applis en développement : ses utilisateurs de test ne peuvent pas se connecter à cette appli.',
  'refusal.forDevelopers': 'Pour les développeurs',
  'refusal.sandbox.adults': 'Seules les applis encore en développement acceptent les utilisateurs de test de l’école de test.',
  'refusal.development.title': '{app} n’est pas encore disponible',
  'refusal.development.text': '{app} est encore en préparation, et les écoles ne peuvent pas encore l’utiliser.',
  'refusal.forAppDevelopers': 'Pour les développeurs de l’appli',
  'refusal.development.adults': 'Cette appli est encore en développement : seule l’école de test peut s’y connecter.',
  'refusal.development.adultsHow': 'Ses utilisateurs de test s’y connectent quand la demande omet le paramètre {parameter} ou indique {value}.',
};
