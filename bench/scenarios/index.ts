/** Every scenario, in the order they run at each size. Add new scenario modules here. */

import { chatBlast } from './chat-blast.js';
import { checkin } from './checkin.js';
import { deltaPlan } from './delta-plan.js';
import { deltaSync } from './delta-sync.js';
import { eventLoop } from './event-loop.js';
import { exportScenario } from './export.js';
import { fullSync } from './full-sync.js';
import { papers } from './papers.js';
import { rooming } from './rooming.js';
import { search } from './search.js';
import { sqlProfile } from './sql-profile.js';
import { staffTable } from './staff-table.js';
import { start } from './start.js';
import type { Scenario } from './types.js';
import { webhooks } from './webhooks.js';

export const scenarios: readonly Scenario[] = [
  fullSync,
  sqlProfile,
  deltaSync,
  search,
  deltaPlan,
  eventLoop,
  checkin,
  chatBlast,
  exportScenario,
  papers,
  staffTable,
  webhooks,
  rooming,
  start,
];
