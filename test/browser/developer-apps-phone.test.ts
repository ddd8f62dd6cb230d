import { appFromRegistrationToDeletionTest } from '../helpers/developer-app-pages.js';

/** An app from registration to deletion at a phone's width: every page screenshotted and checked by axe. */
appFromRegistrationToDeletionTest('phone');
