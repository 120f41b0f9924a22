/**
 * A strict reader of the Prometheus text exposition format 0.0.4 for tests: every line must be a
 * `# HELP`, a `# TYPE` or a sample `name{label="value",…} number`; anything else throws. (The npm
 * parser we tried, parse-prometheus-text-format 1.1.1, dropped the labels of histogram samples.)
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Values as Prometheus reads them (Go's ParseFloat): NaN and Inf in any letter case, so prom-client's
// "Nan" (a histogram with no samples yet) is a valid sample.
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|[nN][aA][nN]|[+-]?[iI][nN][fF])(?: -?[0-9]+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;

export function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`Not Prometheus text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const l = LABEL.exec(body);
      if (!l) throw new Error(`Bad labels: ${JSON.stringify(line)}`);
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const raw = m[3] as string;
    samples.push({
      name: m[1] as string,
      labels,
      value: /inf$/i.test(raw)
        ? raw.startsWith('-')
          ? -Infinity
          : Infinity
        : /^nan$/i.test(raw)
          ? Number.NaN
          : Number(raw),
    });
  }
  return { types, samples };
}
