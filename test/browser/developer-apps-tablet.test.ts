import { appFromRegistrationToDeletionTest } from '../helpers/developer-app-pages.js';

/** An app from registration to deletion at a tablet's width: every page screenshotted and checked by axe. */
appFromRegistrationToDeletionTest('tablet');
