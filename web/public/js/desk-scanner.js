// QR codes for the check-in desk, decoded in the browser by zxing-wasm (its reader build,
// /assets/vendor/zxing-reader.js, defines the global ZXingWASM; its WebAssembly file is served by
// Muster at /assets/vendor/zxing_reader.wasm, never from a CDN). Two ways in:
//   - the device camera (getUserMedia; browsers allow it on https and on localhost only): frames
//     are drawn on a canvas a few times a second and decoded until a code is found;
//   - a photo (an <input type=file accept=image/* capture>), which works everywhere.
// The decoder is loaded when the page opens, so scanning keeps working when the network drops.

const WASM_URL = '/assets/vendor/zxing_reader.wasm';
const OPTIONS = { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 };
let ready = null;

/** Loads the decoder once (fetches and compiles the WebAssembly file). */
export function loadDecoder() {
  if (!ready) {
    const zxing = globalThis.ZXingWASM;
    if (!zxing) return Promise.reject(new Error('QR decoder script missing'));
    ready = zxing.prepareZXingModule({
      overrides: { locateFile: (path, prefix) => (path.endsWith('.wasm') ? WASM_URL : prefix + path) },
      fireImmediately: true,
    });
  }
  return ready;
}

/** The text of the first QR code in `input` (a Blob or ImageData), or null. */
export async function decode(input) {
  await loadDecoder();
  const results = await globalThis.ZXingWASM.readBarcodes(input, OPTIONS);
  const hit = results.find((r) => r.isValid && r.text);
  return hit ? hit.text : null;
}

/** Can this page use the camera? (secure context and a camera API) */
export function cameraAvailable() {
  return Boolean(window.isSecureContext && navigator.mediaDevices?.getUserMedia);
}

/**
 * Starts the back camera in `video` and calls `onCode(text)` for each new code seen (the same code
 * is reported again only after 5 s, so holding a badge up does not repeat the scan). Returns stop().
 */
export async function startCamera(video, onCode) {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  await video.play();
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let running = true;
  let last = { text: '', at: 0 };
  const tick = async () => {
    if (!running) return;
    if (video.videoWidth > 0) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      context.drawImage(video, 0, 0);
      const text = await decode(context.getImageData(0, 0, canvas.width, canvas.height)).catch(() => null);
      const now = Date.now();
      if (text && (text !== last.text || now - last.at > 5000)) {
        last = { text, at: now };
        onCode(text);
      }
    }
    if (running) setTimeout(tick, 250);
  };
  tick();
  return () => {
    running = false;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
}
