/** The configured flight-data provider (docs/travel.md "Providers"); null when none is configured. */

import type { FlightsConfig } from '../../lib/flights-config.js';
import { aeroDataBox } from './aerodatabox.js';
import { demoProvider } from './demo.js';
import type { FlightProvider } from './provider.js';

export function flightProvider(config: FlightsConfig, clock?: () => number): FlightProvider | null {
  switch (config.provider) {
    case 'aerodatabox':
      return aeroDataBox(config);
    case 'demo':
      return demoProvider(clock);
    default:
      return null;
  }
}
