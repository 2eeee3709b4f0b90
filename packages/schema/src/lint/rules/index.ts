// Every lint rule, in the order findings of one table are listed.
import type { LintRule } from '../types';
import { destructiveChange } from './destructive';
import { foreignKeyTypeMismatch, foreignKeyWithoutIndex, nullableForeignKey } from './foreign-keys';
import { namingConvention, reservedWord } from './naming';
import { tableWithoutPrimaryKey, tooWideTable } from './structure';

export const LINT_RULES: readonly LintRule[] = [
  tableWithoutPrimaryKey,
  foreignKeyWithoutIndex,
  foreignKeyTypeMismatch,
  nullableForeignKey,
  namingConvention,
  reservedWord,
  tooWideTable,
  destructiveChange,
];
