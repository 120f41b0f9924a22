/** Whose outbound webhook endpoints: an event's or a series' (docs/webhooks.md "Outbound"). */
export type Owner =
  | { kind: 'event'; eventId: number; seriesId: string }
  | { kind: 'series'; seriesId: string };
