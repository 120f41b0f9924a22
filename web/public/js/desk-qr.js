// The desk's two QR inputs, wired to the decoder (desk-scanner.js): the "Photo of a QR code" file
// input (works everywhere) and the "Scan" button in the bar at the bottom: in a secure context
// with a camera it toggles the camera and its preview, elsewhere it opens the photo picker. Each decoded text goes to `onCode(text)`; problems go to `say(message)`.
import { cameraAvailable, decode, startCamera } from './desk-scanner.js';

const { t } = globalThis.musterStrings;

/** `view`: the desk's view (camera(on), say(text)); `onCode(text)`: a ticket was read. */
export function setUpQr({ view, onCode }) {
  const $ = (id) => document.getElementById(id);
  $('desk-photo').addEventListener('change', async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const text = await decode(file).catch(() => null);
    event.target.value = '';
    if (text) await onCode(text);
    else view.say(t('scripts.desk.no_code_in_photo'));
  });

  const button = $('desk-scan');
  if (!cameraAvailable()) {
    button.addEventListener('click', () => $('desk-photo').click());
    return;
  }
  let stop = null;
  button.addEventListener('click', async () => {
    if (stop) {
      stop();
      stop = null;
      view.camera(false);
      return;
    }
    try {
      view.camera(true);
      stop = await startCamera($('desk-video'), onCode);
    } catch {
      view.camera(false);
      view.say(t('scripts.desk.camera_failed'));
    }
  });
}
