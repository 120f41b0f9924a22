/**
 * An event's own look on the participant pages: its uploaded logo and banner (setup wizard). The
 * pages' CSP allows images from this origin only, so the absolute `logo_url`/`banner_url` are
 * rendered as their `/media/…` path; anything else is not shown.
 */
import { type Translate, translator } from '../../lib/i18n/index.js';
import { mediaPath } from '../events/event-images.service.js';

export interface EventBrand {
  /** `{src, alt}` of the logo, or null. */
  eventLogo: { src: string; alt: string } | null;
  /** `/media/…` path of the banner (decorative), or null. */
  eventBanner: string | null;
}

export function eventBrand(
  eventName: string,
  logoUrl: string | null,
  bannerUrl: string | null,
  t: Translate = translator('en'),
): EventBrand {
  const logo = mediaPath(logoUrl);
  return {
    eventLogo: logo ? { src: logo, alt: t('frame.logo_alt', { event: eventName }) } : null,
    eventBanner: mediaPath(bannerUrl),
  };
}
