// ANTLR's two-stage parsing for @dbml/core's grammars. @dbml/core builds its ANTLR parser inside each
// parse call and keeps ANTLR's default prediction mode, full-context LL, which on the T-SQL grammar costs
// 10× more than SLL (measured on SSMS scripts: 16 s against 1.4 s for 200KB). ANTLR's documented
// strategy is to parse with SLL first and to re-parse with LL only when SLL reports a syntax error (SLL
// never accepts input LL would reject; it can reject input LL accepts). @dbml/core gives no handle on its
// parser, so the mode is chosen where ANTLR sets it: the prediction simulator's constructor assigns
// `this.predictionMode = LL`. For the length of one synchronous parse call, an accessor on
// Object.prototype turns that assignment into SLL; it is removed before the call returns, and nothing
// else runs on this thread in between. If a later @dbml/core stops assigning the field this way, the
// accessor is simply never used and parsing stays LL: slower, still correct.

/** ANTLR's PredictionMode.SLL. */
const SLL = 0;

export function withSllPrediction<T>(parse: () => T): T {
  Object.defineProperty(Object.prototype, 'predictionMode', {
    configurable: true,
    set(this: object) {
      Object.defineProperty(this, 'predictionMode', {
        value: SLL,
        writable: true,
        configurable: true,
        enumerable: true,
      });
    },
  });
  try {
    return parse();
  } finally {
    delete (Object.prototype as { predictionMode?: unknown }).predictionMode;
  }
}

/** Parses with SLL prediction, and again with ANTLR's default LL when SLL reports a syntax error. */
export function parseTwoStage<T>(parse: () => T): T {
  try {
    return withSllPrediction(parse);
  } catch {
    return parse();
  }
}
