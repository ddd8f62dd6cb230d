/**
 * Unicode's direction controls (the bidirectional embeddings, overrides and isolates, and the marks): text
 * shown after one is displayed reordered or reversed, so a name could pass for another (an app called
 * "Maths \u202Eemoh ruoy ot kcab og" reads "go back to your home" on the sign-in screen). Names that people
 * choose and others read (an app's, a developer's) refuse them, as they refuse control characters.
 */
const DIRECTION_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export const reordersText = (text: string): boolean => DIRECTION_CONTROLS.test(text);
