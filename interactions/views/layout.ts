import { html, type Raw } from './html.js';

/** The page frame shared by every hosted screen: plain, accessible, mobile-first. */
export function layout(title: string, body: Raw): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Lanyard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/interaction-assets/lanyard.css">
<script src="/interaction-assets/countdown.js" defer></script>
</head>
<body>
<main class="card">
<p class="brand" aria-hidden="true">🪪 Lanyard</p>
${body}
</main>
</body>
</html>
`.value;
}
