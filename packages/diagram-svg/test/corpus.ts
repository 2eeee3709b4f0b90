// The public corpus and its documents: packages/sql's corpus helper, the one of every package's tests.
export { CORPUS, type CorpusFile, corpusFiles, importCorpus } from '../../sql/test/corpus';
