/**
 * The built-in consent documents (embedded signing, docs/decisions.md "Consents"): the text shown above a typed
 * signature until an event saves its own version in the setup wizard
 * (consent-documents.service.ts). With an e-signature provider the documents live there instead.
 */
export const CONSENT_TITLES: Record<string, string> = {
  waiver: 'Participation waiver',
  freedom_waiver: 'Freedom waiver',
  code_of_conduct: 'Code of conduct',
};

export const CONSENT_TEXTS: Record<string, string[]> = {
  waiver: [
    'I take part in this event of my own free will. I understand that activities at the event carry some risk, and I will follow the instructions of the event team.',
    'I confirm that the information I gave in this registration is true and complete, and I will tell the event team if it changes.',
    'I agree that the event team may share my medical and dietary information with the people who need it to keep me safe.',
  ],
  freedom_waiver: [
    'I understand that during free time I may leave the venue without staff supervision, and that I am responsible for myself during that time.',
    'I will be back at the times the event team sets and keep my phone with me.',
  ],
  code_of_conduct: [
    'I will treat everyone at the event with respect, whatever their background, identity or beliefs.',
    'I will not harass, bully or discriminate against anyone, and I will report anything that worries me to the event team.',
  ],
};

export function consentTitle(type: string): string {
  return CONSENT_TITLES[type] ?? type.replace(/_/g, ' ');
}

/** The consent types an event can have a document for, in display order. */
export const CONSENT_DOCUMENT_TYPES = Object.keys(CONSENT_TEXTS);

/** The default document of `type` as a title and a plain-text body (paragraphs split by blank lines). */
export function defaultConsentDocument(type: string): { title: string; body: string } {
  return { title: consentTitle(type), body: (CONSENT_TEXTS[type] ?? []).join('\n\n') };
}
