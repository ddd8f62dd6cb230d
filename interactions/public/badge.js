// Badge scanner: reads the badge's QR code from the camera (or a photo) in the browser, with jsQR.
(() => {
  const form = document.querySelector('[data-badge-form]');
  if (!form || typeof window.jsQR !== 'function') return;
  const input = form.querySelector('input[name="code"]');
  const scanner = document.querySelector('[data-scanner]');
  const video = document.querySelector('[data-scanner-video]');
  const status = document.querySelector('[data-scanner-status]');
  const upload = document.querySelector('[data-upload]');
  const photo = document.querySelector('[data-upload-input]');
  // What the page says, in its language: the server writes each into the form's data-say-… attributes.
  const words = form.dataset;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let done = false;
  // After a badge was refused (this page shows the error), the same badge is most likely still in front of the
  // camera: posting it again and again would loop until the device is locked out. So the camera only submits
  // once it has seen no badge for a moment (taken away, then shown again); typing and photos work as usual.
  const refused = Boolean(document.querySelector('[role="alert"]'));
  let armed = !refused;
  let clearSince = 0;
  const REARM_MS = 1500;
  // The status is a live region: only changes are written, so a screen reader says each message once.
  const say = (text) => { if (status.textContent !== text) status.textContent = text; };

  const decode = (source, width, height) => {
    const scale = Math.min(1, 800 / Math.max(width, height));
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    context.drawImage(source, 0, 0, canvas.width, canvas.height);
    const found = window.jsQR(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
    return found && found.data.startsWith('LB1:') ? found.data : undefined;
  };

  const submit = (code) => {
    done = true;
    input.value = code.slice('LB1:'.length).replace(/(.{4})(?=.)/g, '$1-'); // as printed under the QR code
    status.textContent = words.sayFound;
    // The picture stays on the badge while the page signs in (stopping the camera now would show black);
    // the camera is let go when the page goes.
    video.pause();
    form.requestSubmit();
  };

  const scan = () => {
    if (done) return;
    if (video.readyState >= 2 && video.videoWidth) {
      const code = decode(video, video.videoWidth, video.videoHeight);
      if (code && armed) return submit(code);
      const now = Date.now();
      if (code) {
        clearSince = 0;
        say(words.sayTakeAway);
      } else if (!armed) {
        clearSince = clearSince || now;
        if (now - clearSince >= REARM_MS) {
          armed = true;
          say(words.sayHoldUp);
        }
      }
    }
    setTimeout(scan, 150);
  };

  upload.hidden = false;
  // Once a photo has been tried, its answer stays on screen: the camera starting (or failing) later says nothing.
  let photoTried = false;
  photo.addEventListener('change', async () => {
    const file = photo.files && photo.files[0];
    if (!file) return;
    photoTried = true;
    try {
      const image = await createImageBitmap(file);
      const code = decode(image, image.width, image.height);
      if (code) submit(code);
      else status.textContent = words.sayNoBadge;
    } catch {
      status.textContent = words.sayUnreadable;
    }
    scanner.hidden = false;
  });

  window.addEventListener('pagehide', () => {
    if (video.srcObject) video.srcObject.getTracks().forEach((track) => track.stop());
  });

  // No live picture: the page says why, and asks for what is left. With no camera at all (a desktop), the
  // photo button opens a file chooser: it offers to choose a photo, after the code. Otherwise (the camera
  // refused to this page, busy, or no camera API here: plain http) it opens the camera app, which still takes one.
  const withoutCamera = (noCamera) => {
    video.hidden = true;
    scanner.hidden = false;
    const prompt = document.querySelector('.prompt');
    if (noCamera) {
      // Typing comes first here (a desktop seldom holds a photo of a pupil's badge), the photo after it.
      form.after(upload);
      form.querySelector('label[for="code"]').textContent = words.sayTypeCode;
      document.querySelector('[data-upload-label]').textContent = words.sayChoosePhoto;
      document.querySelector('[data-upload-icon]').textContent = '🖼️';
      if (document.activeElement === document.body) input.focus();
    }
    const why = noCamera ? words.sayNoCameraPrompt : words.sayBlockedPrompt;
    if (prompt) prompt.textContent = words.sayHello ? `${words.sayHello} ${why}` : why;
    if (!photoTried) status.textContent = noCamera ? words.sayNoCamera : words.sayBlocked;
  };
  const NO_CAMERA = ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError'];

  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return withoutCamera(false);
  scanner.hidden = false;
  navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
    .then((stream) => {
      video.srcObject = stream;
      return video.play();
    })
    .then(() => {
      if (!photoTried) status.textContent = words.sayHoldUp;
      scan();
    })
    .catch((err) => withoutCamera(Boolean(err) && NO_CAMERA.includes(err.name)));
})();
