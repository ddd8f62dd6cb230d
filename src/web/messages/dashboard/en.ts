/** The front door (find your school), the dashboard of apps, and a launch it refuses (src/dashboard/). */
export const dashboardEn = {
  'dashboard.home.title': 'Sign in to your school',
  'dashboard.home.heading': 'Find your school',
  'dashboard.home.lead': 'Sign in once, then open all your school’s apps.',
  'dashboard.home.cancelled': 'You did not sign in. Find your school to try again.',
  'dashboard.home.noMatch': 'No school matches “{query}”. Check the spelling, or ask your teacher for your school’s name.',
  'dashboard.title': '{school} apps',
  'dashboard.hello': 'Hello, {name}',
  'dashboard.signOut': 'Sign out',
  'dashboard.yourApps': 'Your apps',
  'dashboard.noApps': '{school} has not added any apps for you yet. Ask your teacher.',
  'dashboard.formExpired.title': 'Please try again',
  'dashboard.formExpired.text': 'This page had been open too long. Go back to your apps and try again.',
  'dashboard.notYourApp.title': 'Not one of your apps',
  'dashboard.notYourApp.text': 'This app is not on your dashboard. Go back to your apps and pick another.',
} as const;
